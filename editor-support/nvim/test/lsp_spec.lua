-- The acceptance test with a real editor as the client: headless Neovim
-- opens a .cog file with an error, attaches `cogflow lsp` through
-- require("cogflow"), and checks what a person would see: filetype, syntax,
-- indentation; the diagnostic's line and column; hover; go to definition;
-- the "did you mean" quick fix; code lenses; the fix clearing the
-- diagnostic; formatting (also on save); the server's clean exit. Run by
-- cmd/cogflow/lsp_nvim_test.go:
--
--   nvim --headless --clean -u NONE --cmd 'set rtp^=editor-support/nvim' \
--     -c 'luafile editor-support/nvim/test/lsp_spec.lua'
--
-- with COGFLOW_BIN (the binary), COGFLOW_NVIM_FILE (the .cog file, in a
-- project with a .cogflow folder), COGFLOW_NVIM_HOVER (the definition the
-- hover must show). Any failure ends Neovim with exit code 1 (:cquit) after
-- a line "FAIL: …" on stderr; success prints "PASS" and exits 0. Each wait is
-- bounded (vim.wait), so nothing hangs.
--
-- The file (lines 1-based here, 0-based in the API):
--   5 `input mark: … = "é中😀"  anchor notes = …`   two statements on one line,
--     so that the anchor a definition jumps to stands after non-ASCII text
--   9 `op3 = type(notes, "é中😀" + keywrd)`         the error, after é 中 😀
--  10 `op4 = type(textbox(name: "é中😀"), headline<…>(op2))`  hover
--  11 `… "é中😀"), mark)  op6 = click(notes)`        go to definition

local WAIT = 10000 -- ms: the longest any single expectation may take

local function out(fmt, ...)
  io.stdout:write(string.format(fmt, ...) .. "\n")
end

local function fail(fmt, ...)
  io.stderr:write("FAIL: " .. string.format(fmt, ...) .. "\n")
  io.stderr:flush()
  vim.cmd("cquit 1")
end

local function check(cond, fmt, ...)
  if not cond then
    fail(fmt, ...)
  end
  return cond
end

-- wait_for polls cond until it holds, or fails with what it waited for.
local function wait_for(what, cond)
  if not vim.wait(WAIT, cond, 20) then
    fail("timed out after %d ms waiting for %s", WAIT, what)
  end
end

local function env(name)
  local v = os.getenv(name)
  check(v ~= nil and v ~= "", "environment variable %s is not set", name)
  return v
end

-- Byte column (0-based) of the first `needle` on line lnum (0-based) of buf,
-- searching from byte `from`.
local function col_of(buf, lnum, needle, from)
  local line = vim.api.nvim_buf_get_lines(buf, lnum, lnum + 1, true)[1]
  local s = line:find(needle, (from or 0) + 1, true)
  check(s ~= nil, "%q is not on line %d: %q", needle, lnum + 1, line)
  return s - 1
end

local function syn_name(buf, lnum, col)
  return vim.api.nvim_buf_call(buf, function()
    return vim.fn.synIDattr(vim.fn.synID(lnum + 1, col + 1, 1), "name")
  end)
end

-- The filetype, syntax, ftplugin and indent files, before any server.
local function test_filetype_and_syntax(file)
  vim.v.errmsg = ""
  vim.cmd("edit " .. vim.fn.fnameescape(file))
  local buf = vim.api.nvim_get_current_buf()
  check(vim.bo[buf].filetype == "cog", "ftdetect: filetype of %s is %q, want cog", file, vim.bo[buf].filetype)
  check(vim.b[buf].current_syntax == "cog", "syntax/cog.vim did not load (b:current_syntax %s)", vim.inspect(vim.b[buf].current_syntax))
  check(vim.bo[buf].commentstring == "# %s", "ftplugin: commentstring is %q", vim.bo[buf].commentstring)
  check(vim.bo[buf].shiftwidth == 2 and vim.bo[buf].expandtab, "ftplugin: shiftwidth %d expandtab %s", vim.bo[buf].shiftwidth, tostring(vim.bo[buf].expandtab))
  check(vim.v.errmsg == "", "an error while loading the cog files: %s", vim.v.errmsg)

  -- A scratch buffer with each kind of token, and the group each gets.
  local s = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_lines(s, 0, -1, true, {
    '# a comment TODO',
    'task demo "A title \\"quoted\\"" {',
    '  input n: number = 1.5e3',
    '  anchor box = textbox(name: "Search")',
    '  repeat n {',
    '    op1 = type(box, repeat<"the value read earlier">(n))',
    '    confirm op2 = click(contextual_selection.match_element<"the row">(op1))',
    '    op3 = click(op2.cell("Title"))',
    '  }',
    '}',
  })
  vim.api.nvim_buf_call(s, function()
    vim.cmd("setfiletype cog")
  end)
  check(vim.v.errmsg == "", "an error while loading the cog files: %s", vim.v.errmsg)
  local cases = {
    { 0, "#", "cogComment" }, { 0, "TODO", "cogTodo" },
    { 1, "task", "cogDeclare" }, { 1, "demo", "cogTaskName" }, { 1, '"A', "cogString" }, { 1, '\\"', "cogEscape" },
    { 2, "input", "cogDeclare" }, { 2, "n:", "cogInputName" }, { 2, "number", "cogType" }, { 2, "1.5e3", "cogNumber" },
    { 3, "anchor", "cogDeclare" }, { 3, "box", "cogAnchorName" }, { 3, "textbox", "cogElement" }, { 3, "name", "cogArgName" },
    { 4, "repeat", "cogRepeat" },
    { 5, "op1", "cogStepName" }, { 5, "type", "cogCall" }, { 5, "repeat<", "cogDependency" }, { 5, "the value", "cogDescription" },
    { 6, "confirm", "cogStatement" }, { 6, "op2", "cogStepName" }, { 6, "contextual_selection", "cogDependency" },
    { 6, "match_element", "cogDependency" }, { 7, "click", "cogCall" }, { 7, "cell", "cogCall" },
  }
  for _, c in ipairs(cases) do
    local col = col_of(s, c[1], c[2])
    local got = syn_name(s, c[1], col)
    check(got == c[3], "syntax: %q on line %d is %q, want %q", c[2], c[1] + 1, got, c[3])
  end
  -- Indentation: one level per open brace, one less on a closing line.
  vim.api.nvim_buf_call(s, function()
    check(vim.bo.indentexpr == "CogIndent(v:lnum)", "indent/cog.vim not loaded: indentexpr %q", vim.bo.indentexpr)
    local want = { [2] = 0, [3] = 2, [6] = 4, [8] = 4, [9] = 2, [10] = 0 }
    for lnum, ind in pairs(want) do
      local got = vim.fn.CogIndent(lnum)
      check(got == ind, "indent of line %d is %d, want %d", lnum, got, ind)
    end
  end)
  vim.api.nvim_buf_delete(s, { force = true })
  out("ok filetype, syntax, ftplugin, indent")
  return buf
end

-- The clients of buf (all clients when buf is nil), through the API of the
-- running version: vim.lsp.get_clients since 0.10.
local function clients_of(buf)
  if vim.lsp.get_clients ~= nil then
    return vim.lsp.get_clients({ bufnr = buf })
  end
  return buf and vim.lsp.buf_get_clients(buf) or vim.lsp.get_active_clients()
end

local function cogflow_client(buf)
  for _, c in pairs(clients_of(buf)) do
    if c.name == "cogflow" then
      return c
    end
  end
end

-- The one diagnostic of the file: the undefined name, after é 中 😀.
local function test_diagnostic(buf)
  wait_for("the diagnostic of the undefined name", function()
    return #vim.diagnostic.get(buf) > 0
  end)
  local ds = vim.diagnostic.get(buf)
  check(#ds == 1, "want 1 diagnostic, got %d: %s", #ds, vim.inspect(ds))
  local d = ds[1]
  local lnum = 8
  local col = col_of(buf, lnum, "keywrd")
  check(d.lnum == lnum and d.col == col and d.end_lnum == lnum and d.end_col == col + #"keywrd",
    "diagnostic at %d:%d-%d:%d (0-based, bytes), want %d:%d-%d:%d: %s",
    d.lnum, d.col, d.end_lnum, d.end_col, lnum, col, lnum, col + #"keywrd", vim.inspect(d))
  check(d.severity == vim.diagnostic.severity.ERROR, "severity %s, want ERROR", tostring(d.severity))
  check(d.message:find("keywrd", 1, true) ~= nil, "message %q does not name keywrd", d.message)
  out("ok diagnostic %d:%d %q", d.lnum + 1, d.col + 1, d.message)
  return d
end

-- requires fails unless the server announces the capability a feature
-- needs, so that a missing feature says so instead of timing out.
local function requires(buf, capability)
  local caps = cogflow_client(buf).server_capabilities or {}
  check(caps[capability], "the server does not announce %s: %s", capability, vim.inspect(vim.tbl_keys(caps)))
end

local function hover_text(buf, lnum, col)
  vim.api.nvim_win_set_cursor(0, { lnum + 1, col })
  local params = vim.lsp.util.make_position_params(0, cogflow_client(buf).offset_encoding)
  local res, err = vim.lsp.buf_request_sync(buf, "textDocument/hover", params, WAIT)
  check(res ~= nil, "hover: no answer: %s", tostring(err))
  local texts = {}
  for _, r in pairs(res) do
    check(r.err == nil, "hover: error %s", vim.inspect(r.err))
    if r.result and r.result.contents then
      local lines = vim.lsp.util.convert_input_to_markdown_lines(r.result.contents)
      table.insert(texts, table.concat(lines, "\n"))
    end
  end
  return table.concat(texts, "\n")
end

-- Hover on the dependency's category name, at its last letter, after
-- é 中 😀 on the line: a position converted to the wrong unit lands in the
-- description instead.
local function test_hover(buf, want)
  requires(buf, "hoverProvider")
  local lnum = 9
  local col = col_of(buf, lnum, "headline<") + #"headline" - 1
  local text = hover_text(buf, lnum, col)
  check(text:find(want, 1, true) ~= nil, "hover on headline: want its definition %q, got %q", want, text)
  out("ok hover")
end

-- Go to definition from `notes` in op6 (after é 中 😀) to the anchor, which
-- stands after é 中 😀 on line 5: Neovim's own handler moves the cursor.
local function test_definition(buf)
  requires(buf, "definitionProvider")
  local lnum = 10
  local col = col_of(buf, lnum, "click(notes") + #"click("
  vim.api.nvim_win_set_cursor(0, { lnum + 1, col })
  vim.lsp.buf.definition()
  wait_for("go to definition to move the cursor", function()
    return vim.api.nvim_win_get_cursor(0)[1] ~= lnum + 1
  end)
  local pos = vim.api.nvim_win_get_cursor(0)
  check(vim.api.nvim_get_current_buf() == buf, "definition opened another buffer: %s", vim.api.nvim_buf_get_name(0))
  local anchor_col = col_of(buf, 4, "anchor notes")
  local name_col = anchor_col + #"anchor "
  check(pos[1] == 5 and (pos[2] == anchor_col or pos[2] == name_col),
    "definition: cursor at %d:%d (1-based line, 0-based byte), want 5:%d (the anchor) or 5:%d (its name)",
    pos[1], pos[2], anchor_col, name_col)
  out("ok definition %d:%d", pos[1], pos[2])
end

local function line_of(buf, lnum)
  return vim.api.nvim_buf_get_lines(buf, lnum, lnum + 1, true)[1]
end

-- The "did you mean" quick fix through Neovim's own code-action path
-- (vim.ui.select picks it, Neovim applies the edit converting UTF-16 to
-- bytes), then the line is put back: the diagnostic returns.
local function test_code_action(buf, d)
  requires(buf, "codeActionProvider")
  local before = line_of(buf, d.lnum)
  local want = before:sub(1, d.col) .. "keyword" .. before:sub(d.end_col + 1)
  local select, offered, picked = vim.ui.select, nil, nil
  vim.ui.select = function(items, _, on_choice)
    offered = {}
    for i, item in ipairs(items) do
      -- 0.7 offers {client_id, action}; 0.10 {action = …, ctx = …}.
      local action = item.action or item[2]
      table.insert(offered, action.title)
      if action.title == "Change to keyword" and picked == nil then
        picked = i
      end
    end
    vim.ui.select = select
    on_choice(picked and items[picked], picked)
  end
  vim.api.nvim_win_set_cursor(0, { d.lnum + 1, d.col })
  require("cogflow").code_action()
  wait_for("the code actions to be offered", function()
    return offered ~= nil
  end)
  check(picked ~= nil, "no quick fix \"Change to keyword\" among %s", vim.inspect(offered))
  wait_for("the quick fix to change the line", function()
    return line_of(buf, d.lnum) ~= before
  end)
  check(line_of(buf, d.lnum) == want, "after the quick fix line %d is %q, want %q", d.lnum + 1, line_of(buf, d.lnum), want)
  wait_for("the diagnostic to go away after the quick fix", function()
    return #vim.diagnostic.get(buf) == 0
  end)
  vim.api.nvim_buf_set_lines(buf, d.lnum, d.lnum + 1, true, { before })
  wait_for("the diagnostic to come back with the error", function()
    local ds = vim.diagnostic.get(buf)
    return #ds == 1 and ds[1].lnum == d.lnum and ds[1].col == d.col
  end)
  out("ok quick fix %q, and back", offered[picked])
end

-- The code lenses above the task, as vim.lsp.codelens shows them.
local function test_codelens(buf)
  requires(buf, "codeLensProvider")
  vim.api.nvim_buf_call(buf, function()
    vim.lsp.codelens.refresh()
  end)
  local titles
  wait_for("the code lenses", function()
    titles = {}
    for _, l in ipairs(vim.lsp.codelens.get(buf)) do
      if l.command and l.range.start.line == 1 then
        table.insert(titles, l.command.title)
      end
    end
    return #titles > 0
  end)
  table.sort(titles)
  check(vim.deep_equal(titles, { "Dry run", "▶ Run task" }), "code lenses on the task's line: %s", vim.inspect(titles))
  out("ok code lenses %s", table.concat(titles, ", "))
end

-- Fix the error where the diagnostic says it is: the diagnostic goes away.
local function test_fix(buf, d)
  local word = vim.api.nvim_buf_get_text(buf, d.lnum, d.col, d.end_lnum, d.end_col, {})[1]
  check(word == "keywrd", "the diagnostic's range holds %q, want keywrd", tostring(word))
  vim.api.nvim_buf_set_text(buf, d.lnum, d.col, d.end_lnum, d.end_col, { "keyword" })
  wait_for("the diagnostic to go away after the fix", function()
    return #vim.diagnostic.get(buf) == 0
  end)
  out("ok fixed, no diagnostic")
end

-- Formatting splits line 5's two statements and rewrites the buffer exactly
-- as `cogflow fmt` lays out the same text.
local function test_format(buf, bin)
  requires(buf, "documentFormattingProvider")
  local before = vim.api.nvim_buf_get_lines(buf, 0, -1, true)
  local tmp = vim.fn.tempname() .. ".cog"
  vim.fn.writefile(before, tmp)
  local want = vim.fn.systemlist({ bin, "fmt", tmp })
  check(vim.v.shell_error == 0, "cogflow fmt %s: exit %d: %s", tmp, vim.v.shell_error, table.concat(want, "\n"))
  vim.fn.delete(tmp)
  local tick = vim.api.nvim_buf_get_changedtick(buf)
  require("cogflow").format(buf)
  local got = vim.api.nvim_buf_get_lines(buf, 0, -1, true)
  check(vim.api.nvim_buf_get_changedtick(buf) ~= tick and not vim.deep_equal(got, before),
    "formatting did not change the buffer:\n%s", table.concat(got, "\n"))
  check(vim.deep_equal(got, want), "formatted buffer:\n%s\nwant (cogflow fmt):\n%s", table.concat(got, "\n"), table.concat(want, "\n"))
  local found = false
  for _, l in ipairs(got) do
    found = found or l == '  anchor notes = textbox(name: "Notes")'
  end
  check(found, "formatting did not put the anchor on a line of its own:\n%s", table.concat(got, "\n"))
  out("ok format (%d lines)", #got)
end

-- A file opened after setup attaches through the FileType autocommand, to
-- the server its project already has.
local function test_second_file(root, client)
  local other = root .. "/other.cog"
  vim.fn.writefile({ 'task other "Open the site" {', "  driver browser", '  op1 = open("http://127.0.0.1:8088/")', "}" }, other)
  vim.cmd("split " .. vim.fn.fnameescape(other))
  local obuf = vim.api.nvim_get_current_buf()
  wait_for("the second file to attach", function()
    return cogflow_client(obuf) ~= nil
  end)
  check(cogflow_client(obuf).id == client.id, "the second file of the project got a server of its own")
  check(vim.tbl_count(clients_of(nil)) == 1, "%d clients, want 1", vim.tbl_count(clients_of(nil)))
  vim.cmd("close")
  out("ok second file, same server")
end

-- A server that cannot start is an error the user sees, not silence.
local function test_missing_binary(buf)
  local notify, said = vim.notify, {}
  vim.notify = function(msg, level)
    table.insert(said, { msg = msg, level = level })
  end
  require("cogflow").setup({ cmd = { "/nonexistent/cogflow", "lsp" } })
  vim.notify = notify
  check(cogflow_client(buf) == nil, "a client started for a missing binary")
  check(#said == 1 and said[1].level == vim.log.levels.ERROR and said[1].msg:find("is not an executable", 1, true),
    "setup with a missing binary said %s", vim.inspect(said))
  out("ok missing binary: %s", said[1].msg)
end

-- With format_on_save, :write formats first: the file on disk is in
-- `cogflow fmt`'s layout (the step's spaces squeezed).
local function test_format_on_save(buf, bin)
  local lnum
  for i, l in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, true)) do
    if l:find("^  op1 = open%(") then
      lnum = i - 1
    end
  end
  check(lnum ~= nil, "no op1 line after formatting")
  local formatted = vim.api.nvim_buf_get_lines(buf, lnum, lnum + 1, true)[1]
  vim.api.nvim_buf_set_lines(buf, lnum, lnum + 1, true, { (formatted:gsub(" = ", "   =   ")) })
  local file = vim.api.nvim_buf_get_name(buf)
  vim.api.nvim_buf_call(buf, function()
    vim.cmd("silent write")
  end)
  local disk = vim.fn.readfile(file)
  check(disk[lnum + 1] == formatted, "after :write line %d on disk is %q, want %q (format_on_save)", lnum + 1, tostring(disk[lnum + 1]), formatted)
  local again = vim.fn.systemlist({ bin, "fmt", "-l", file })
  check(vim.v.shell_error == 0, "cogflow fmt -l says the saved file is not formatted: %s", table.concat(again, "\n"))
  out("ok format on save")
end

local function main()
  local bin = env("COGFLOW_BIN")
  local file = env("COGFLOW_NVIM_FILE")
  local hover = env("COGFLOW_NVIM_HOVER")
  local buf = test_filetype_and_syntax(file)

  test_missing_binary(buf)
  local exit_code
  -- A loaded machine (make test runs packages in parallel) may take more
  -- than the default 2 s to format.
  require("cogflow").setup({ cmd = { bin, "lsp" }, format_timeout_ms = WAIT, format_on_save = true, on_exit = function(code)
    exit_code = code
  end })
  wait_for("cogflow lsp to attach", function()
    local c = cogflow_client(buf)
    return c ~= nil and c.initialized
  end)
  local client = cogflow_client(buf)
  local root = vim.fn.fnamemodify(file, ":p:h")
  check(client.config.root_dir == root, "root %q, want %q (the folder with .cogflow)", client.config.root_dir, root)
  check(client.offset_encoding == "utf-16", "offset encoding %q, want utf-16", tostring(client.offset_encoding))
  out("ok attached, root %s", client.config.root_dir)
  test_second_file(root, client)

  local d = test_diagnostic(buf)
  test_hover(buf, hover)
  test_definition(buf)
  test_code_action(buf, d)
  test_codelens(buf)
  test_fix(buf, vim.diagnostic.get(buf)[1])
  test_format(buf, bin)
  test_format_on_save(buf, bin)

  -- The server stops when asked, as an editor quitting asks it.
  vim.lsp.stop_client(client.id)
  wait_for("cogflow lsp to stop", function()
    return vim.lsp.get_client_by_id(client.id) == nil and exit_code ~= nil
  end)
  check(exit_code == 0, "cogflow lsp exited with code %s after shutdown and exit, want 0", tostring(exit_code))
  out("PASS")
  vim.cmd("qall!")
end

local ok, err = xpcall(main, debug.traceback)
if not ok then
  fail("%s", tostring(err))
end
