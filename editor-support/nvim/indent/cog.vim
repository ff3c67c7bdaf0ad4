" Indent script for cogflow workflows (*.cog): one shiftwidth per open
" `{`, `(` or `[` at the end of the previous line, one less on a line that
" starts by closing one. The layout `cogflow fmt` (and the language
" server's formatting) writes; this only keeps typing close to it.
if exists("b:did_indent")
  finish
endif
let b:did_indent = 1

setlocal indentexpr=CogIndent(v:lnum)
setlocal indentkeys=0{,0},0),0],!^F,o,O,e
setlocal autoindent nosmartindent nocindent

let b:undo_indent = "setlocal indentexpr< indentkeys< autoindent< smartindent< cindent<"

if exists("*CogIndent")
  finish
endif

" s:code is a line without its comment and trailing blanks. A `#` inside a
" string does not start a comment.
function! s:code(lnum) abort
  let line = getline(a:lnum)
  let out = ''
  let instr = 0
  let i = 0
  while i < len(line)
    let c = line[i]
    if instr && c ==# '\'
      let out .= line[i : i + 1]
      let i += 2
      continue
    elseif c ==# '"'
      let instr = !instr
    elseif !instr && c ==# '#'
      break
    endif
    let out .= c
    let i += 1
  endwhile
  return substitute(out, '\s\+$', '', '')
endfunction

function! CogIndent(lnum) abort
  let prev = prevnonblank(a:lnum - 1)
  while prev > 0 && s:code(prev) =~# '^\s*$'
    let prev = prevnonblank(prev - 1)
  endwhile
  if prev == 0
    return 0
  endif
  let ind = indent(prev)
  if s:code(prev) =~# '[{(\[]$'
    let ind += shiftwidth()
  endif
  if getline(a:lnum) =~# '^\s*[})\]]'
    let ind -= shiftwidth()
  endif
  return ind < 0 ? 0 : ind
endfunction
