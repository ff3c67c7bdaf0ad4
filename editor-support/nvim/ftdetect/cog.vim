" cogflow workflows (*.cog) are filetype "cog". `setfiletype` leaves a
" filetype another rule already chose, as ftdetect files should.
autocmd BufRead,BufNewFile *.cog setfiletype cog
