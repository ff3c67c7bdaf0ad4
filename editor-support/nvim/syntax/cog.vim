" Vim syntax file
" Language:    cogflow workflow (.cog), see docs/language.md
" Maintainer:  the cogflow project (editor-support/nvim)
"
" Colours the lexical elements of docs/language.md: keywords (the list of
" lang/syntax.Keywords), strings with Go escapes, `#` comments, numbers,
" cognitive dependencies `[main.]sub<"description">`, step, anchor, input
" and task names, and element constructors. The language server's semantic
" tokens refine this on Neovim versions that support them; this file is what
" a buffer looks like without (and before) the server.

if exists("b:current_syntax")
  finish
endif

let s:cpo_save = &cpo
set cpo&vim

syn case match
syn sync minlines=50

" Comments run to the end of the line.
syn keyword cogTodo    contained TODO FIXME XXX NOTE
syn match   cogComment "#.*$" contains=cogTodo,@Spell

" Strings end on the line they start on; Go escape syntax.
syn match  cogEscape contained +\\\%([\\"abfnrtv]\|x\x\{2}\|u\x\{4}\|U\x\{8}\|\o\{3}\)+
syn match  cogEscapeError contained +\\[^\\"abfnrtvxuU0-7]+
syn region cogString start=+"+ skip=+\\\\\|\\"+ end=+"+ end=+$+ oneline contains=cogEscape,cogEscapeError,@Spell

" Numbers are decimal with an optional fraction and exponent, no sign.
syn match cogNumber "\<\d\+\%(\.\d\+\)\=\%([eE][+-]\=\d\+\)\=\>"

" Operators and punctuation.
syn match cogOperator "==\|!=\|<=\|>=\|&&\|||\|[-+*/%<>!=]"

" Keywords (lang/syntax.Keywords). Matches rather than `syn keyword`,
" because a keyword has priority over every match in Vim, and some
" keywords are also knowledge-base subcategories (`repeat<"…">(op3)`,
" `explore<"…">(op1)`): a word directly followed by a description is a
" dependency, not a keyword.
let s:nodep = '\>\%(\s*<\s*"\)\@!'
" The patterns are delimited by + since they hold a double quote.
exe 'syn match cogStatement +\<\%(driver\|confirm\|break\|continue\)' . s:nodep . '+'
exe 'syn match cogRepeat +\<\%(for\|in\|repeat\|while\|until\)' . s:nodep . '+'
exe 'syn match cogConditional +\<\%(if\|else\)' . s:nodep . '+'
exe 'syn match cogException +\<\%(try\|fallback\|explore\)' . s:nodep . '+'
exe 'syn match cogBoolean +\<\%(true\|false\)' . s:nodep . '+'
" Declarations name what follows them.
exe 'syn match cogDeclare +\<\%(task\|skill\)' . s:nodep . '+ nextgroup=cogTaskName skipwhite'
exe 'syn match cogDeclare +\<anchor' . s:nodep . '+ nextgroup=cogAnchorName skipwhite'
exe 'syn match cogDeclare +\<input' . s:nodep . '+ nextgroup=cogInputName skipwhite'
syn match cogTaskName   contained "\h\w*"
syn match cogAnchorName contained "\h\w*"
syn match cogInputName  contained "\h\w*" nextgroup=cogTypeSep skipwhite
syn match cogTypeSep    contained ":" nextgroup=cogType skipwhite
syn match cogType       contained "\h\w*\%(<\h\w*>\)\="

" A call: an action, a function or a skill before `(`.
syn match cogCall "\<\h\w*\ze\s*("

" Element constructors (lang/check.ElementRoles) before `(`; defined after
" cogCall, so they win where both start. Not after a dot: `paper.cell("…")`
" is a row's method.
syn match cogElement "\.\@1<!\<\%(element\|button\|link\|textbox\|checkbox\|radio\|combobox\|listbox\|list\|listitem\|menu\|menuitem\|option\|tab\|table\|row\|cell\|heading\|image\|text\|dialog\|region\|slider\|switch\|tree\|treeitem\)\ze\s*("

" A named argument `name:` (and a skill's parameter); an input's name
" before its type is matched above, through the input keyword's nextgroup.
syn match cogArgName "\<\h\w*\ze\s*:"

" A step's name: the first word of a line, before a lone `=`, or after
" `confirm`.
syn match cogStepName "^\s*\zs\h\w*\ze\s*=\%(=\)\@!"
syn match cogStepName "\%(\<confirm\s\+\)\@<=\h\w*\ze\s*=\%(=\)\@!"

" A cognitive dependency: `[main.]sub<"description">`. The category name is
" the part a person chooses from the knowledge base; the description is
" what the model reads.
syn match  cogDependency +\<\%(\h\w*\.\)\=\h\w*\ze\s*<\s*"+ nextgroup=cogDescription skipwhite
syn region cogDescription contained matchgroup=cogDescDelim start=+<\s*"+ skip=+\\\\\|\\"+ end=+"\s*>+ end=+$+ oneline contains=cogEscape,cogEscapeError,@Spell

hi def link cogTodo        Todo
hi def link cogComment     Comment
hi def link cogEscape      SpecialChar
hi def link cogEscapeError Error
hi def link cogString      String
hi def link cogNumber      Number
hi def link cogOperator    Operator
hi def link cogStatement   Statement
hi def link cogRepeat      Repeat
hi def link cogConditional Conditional
hi def link cogException   Exception
hi def link cogBoolean     Boolean
hi def link cogDeclare     Keyword
hi def link cogTaskName    Function
hi def link cogAnchorName  Identifier
hi def link cogInputName   Identifier
hi def link cogTypeSep     Delimiter
hi def link cogType        Type
hi def link cogCall        Function
hi def link cogElement     Structure
hi def link cogArgName     Label
hi def link cogStepName    Identifier
hi def link cogDependency  Special
hi def link cogDescDelim   Delimiter
hi def link cogDescription String

let b:current_syntax = "cog"

let &cpo = s:cpo_save
unlet s:cpo_save
