-- cogflow's Neovim client: starts `cogflow lsp` for *.cog buffers and
-- attaches them to it, one server per project folder.
--
--   require("cogflow").setup{ cmd = { "cogflow", "lsp" } }
--
-- Written for Neovim 0.7 (Debian's), whose API is vim.lsp.start_client and
-- vim.lsp.buf_attach_client; on 0.8 and later, where start_client is
-- deprecated, the same configuration goes through vim.lsp.start.
local M = {}

local defaults = {
  -- The server's command line; cmd[1] is looked up on $PATH.
  cmd = { "cogflow", "lsp" },
  -- A file's project is the nearest folder up from it that holds one of
  -- these (`.cogflow` is where the knowledge base lives); with none, the
  -- file's own folder.
  root_markers = { ".cogflow", ".git" },
  -- Called as on_attach(client, bufnr) when a buffer is attached: the
  -- place for key maps (vim.lsp.buf.hover, definition, …).
  on_attach = nil,
  -- Called as on_exit(code, signal, client_id) when a server ends.
  on_exit = nil,
  -- Client capabilities; nil: vim.lsp.protocol.make_client_capabilities().
  capabilities = nil,
  -- Format with the server before each :write.
  format_on_save = false,
  -- How long a synchronous formatting request may take, in milliseconds.
  format_timeout_ms = 2000,
}

-- M.config is the effective configuration after setup.
M.config = vim.deepcopy(defaults)

-- Client ids by project folder, for Neovim 0.7, where reusing a client is
-- the plugin's job (vim.lsp.start does it itself on later versions).
local clients = {}

local function exists(path)
  return (vim.uv or vim.loop).fs_stat(path) ~= nil -- vim.uv: 0.10+
end

-- root_dir returns the project folder of a file: the nearest folder, up from
-- the file's own, that holds one of the root markers; else the file's folder.
function M.root_dir(path)
  local dir = vim.fn.fnamemodify(path, ":p:h")
  local start = dir
  while true do
    for _, marker in ipairs(M.config.root_markers) do
      if exists(dir .. "/" .. marker) then
        return dir
      end
    end
    local parent = vim.fn.fnamemodify(dir, ":h")
    if parent == dir then
      return start
    end
    dir = parent
  end
end

local function notify_error(msg)
  vim.notify("cogflow: " .. msg, vim.log.levels.ERROR)
end

local function client_config(root)
  return {
    name = "cogflow",
    cmd = M.config.cmd,
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
    capabilities = M.config.capabilities or vim.lsp.protocol.make_client_capabilities(),
    on_attach = M.config.on_attach,
    on_exit = function(code, signal, client_id)
      if clients[root] == client_id then
        clients[root] = nil -- the next cog buffer of this root starts a new one
      end
      if M.config.on_exit then
        M.config.on_exit(code, signal, client_id)
      end
    end,
  }
end

-- Neovim 0.7: one client per root, started once and attached to each buffer.
local function attach_0_7(bufnr, root)
  local id = clients[root]
  local client = id and vim.lsp.get_client_by_id(id)
  if client == nil or client.is_stopped() then
    id = vim.lsp.start_client(client_config(root))
    if id == nil then
      notify_error("could not start " .. table.concat(M.config.cmd, " "))
      return nil
    end
    clients[root] = id
  end
  if not vim.lsp.buf_attach_client(bufnr, id) then
    notify_error("could not attach buffer " .. bufnr .. " to the language server")
    return nil
  end
  return id
end

-- attach starts (or reuses) the language server of the buffer's project and
-- attaches the buffer to it. It returns the client id, or nil after telling
-- the user why not.
function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local name = vim.api.nvim_buf_get_name(bufnr)
  if vim.bo[bufnr].buftype ~= "" then
    return nil
  end
  local exe = M.config.cmd[1]
  if vim.fn.executable(exe) ~= 1 then
    notify_error(string.format(
      "%q is not an executable; install cogflow or give its path: require('cogflow').setup{ cmd = { '/path/to/cogflow', 'lsp' } }",
      exe))
    return nil
  end
  local root = M.root_dir(name ~= "" and name or vim.fn.getcwd() .. "/untitled.cog")
  if vim.lsp.start ~= nil then
    return vim.lsp.start(client_config(root), { bufnr = bufnr })
  end
  return attach_0_7(bufnr, root)
end

local function cogflow_client(client)
  return client.name == "cogflow"
end

-- format rewrites the buffer in cogflow's canonical layout (`cogflow fmt`),
-- through the language server, and waits for it. Neovim 0.8 and later have
-- vim.lsp.buf.format; 0.7 has formatting_sync, for the current buffer.
function M.format(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local timeout = M.config.format_timeout_ms
  if vim.lsp.buf.format ~= nil then
    vim.lsp.buf.format({ bufnr = bufnr, timeout_ms = timeout, filter = cogflow_client })
    return
  end
  vim.api.nvim_buf_call(bufnr, function()
    vim.lsp.buf.formatting_sync(nil, timeout)
  end)
end

-- line_diagnostics returns the cogflow diagnostics of the cursor's line in
-- the protocol's form, with their columns in the client's encoding.
-- Neovim's own conversion (vim.lsp.buf.code_action without a context, up
-- to 0.10 at least: neovim/neovim#29500) sends the byte columns it shows
-- as UTF-16 ones, so after é 中 😀 the server sees the wrong range and
-- refuses a "did you mean" fix that no longer matches the text.
local function line_diagnostics(bufnr, client)
  local row = vim.api.nvim_win_get_cursor(0)[1] - 1
  local ns = vim.lsp.diagnostic.get_namespace(client.id)
  local enc = client.offset_encoding or "utf-16"
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr, { lnum = row, namespace = ns })) do
    local lsp = vim.deepcopy((d.user_data and d.user_data.lsp) or {})
    lsp.range = {
      start = { line = d.lnum, character = vim.lsp.util.character_offset(bufnr, d.lnum, d.col, enc) },
      ["end"] = { line = d.end_lnum, character = vim.lsp.util.character_offset(bufnr, d.end_lnum, d.end_col, enc) },
    }
    lsp.severity = d.severity -- vim.diagnostic's severities are the protocol's numbers
    lsp.message, lsp.source, lsp.code = d.message, d.source, d.code
    table.insert(out, lsp)
  end
  return out
end

-- code_action offers the code actions of the cursor's position (the "did
-- you mean" quick fixes, declaring a missing input) through Neovim's own
-- menu, with the line's diagnostics sent in the right encoding. Map it
-- instead of vim.lsp.buf.code_action in cog buffers.
function M.code_action(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local client
  for _, c in pairs(vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = bufnr }) or vim.lsp.buf_get_clients(bufnr)) do
    if c.name == "cogflow" then
      client = c
    end
  end
  if client == nil then
    notify_error("this buffer is not attached to cogflow lsp")
    return
  end
  local context = { diagnostics = line_diagnostics(bufnr, client) }
  if vim.fn.has("nvim-0.8") == 1 then
    vim.lsp.buf.code_action({ context = context })
  else
    vim.lsp.buf.code_action(context)
  end
end

local function on_filetype(args)
  local bufnr = args.buf
  if M.attach(bufnr) == nil then
    return
  end
  vim.api.nvim_buf_create_user_command(bufnr, "CogflowFormat", function()
    M.format(bufnr)
  end, { desc = "Format the buffer with cogflow's language server" })
  vim.api.nvim_buf_create_user_command(bufnr, "CogflowCodeAction", function()
    M.code_action(bufnr)
  end, { desc = "Code actions of the cursor's position (did you mean …, declare an input)" })
  if M.config.format_on_save then
    vim.api.nvim_create_autocmd("BufWritePre", {
      group = vim.api.nvim_create_augroup("cogflow_format_" .. bufnr, { clear = true }),
      buffer = bufnr,
      callback = function()
        M.format(bufnr)
      end,
    })
  end
end

-- setup merges opts into the configuration and attaches every cog buffer,
-- those open already included, to its project's language server.
function M.setup(opts)
  M.config = vim.tbl_deep_extend("force", vim.deepcopy(defaults), opts or {})
  if type(M.config.cmd) ~= "table" or type(M.config.cmd[1]) ~= "string" then
    notify_error("setup{ cmd = … } must be a list such as { 'cogflow', 'lsp' }")
    return
  end
  local group = vim.api.nvim_create_augroup("cogflow", { clear = true })
  -- ftdetect/cog.vim's rule again: a plugin manager that adds this folder
  -- to the runtimepath after filetype detection started never sources it.
  vim.api.nvim_create_autocmd({ "BufRead", "BufNewFile" }, { group = group, pattern = "*.cog", command = "setfiletype cog" })
  vim.api.nvim_create_autocmd("FileType", { group = group, pattern = "cog", callback = on_filetype })
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) then
      if vim.bo[bufnr].filetype == "" and vim.api.nvim_buf_get_name(bufnr):match("%.cog$") then
        vim.bo[bufnr].filetype = "cog" -- its FileType autocmd attaches it
      elseif vim.bo[bufnr].filetype == "cog" then
        on_filetype({ buf = bufnr })
      end
    end
  end
end

return M
