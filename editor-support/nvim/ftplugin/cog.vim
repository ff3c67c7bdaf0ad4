" Filetype plugin for cogflow workflows (*.cog): comments and the layout of
" `cogflow fmt` (two spaces per block level).
if exists("b:did_ftplugin")
  finish
endif
let b:did_ftplugin = 1

setlocal commentstring=#\ %s
setlocal comments=:#
" Continue comments on Enter and `o`, wrap comments at textwidth, never
" wrap code.
setlocal formatoptions-=t formatoptions+=croql
setlocal expandtab shiftwidth=2 softtabstop=2 tabstop=8
" A name may hold underscores; `gf`-like motions and `*` see op_name whole.
setlocal iskeyword=@,48-57,_

let b:undo_ftplugin = "setlocal commentstring< comments< formatoptions< expandtab< shiftwidth< softtabstop< tabstop< iskeyword<"
