package main

import "github.com/cogflow/cogflow/internal/readlimit"

// Size limits, one per kind of file the command line reads whole (traces
// and recordings have theirs in runtime/trace). Each is
// far above any real file of its kind and far below what would exhaust
// memory; a file past its limit (or one that never ends, such as
// /dev/zero) is refused with an error naming the file and the limit.
const (
	maxWorkflowSize  = readlimit.MaxWorkflowSize // a .cog file
	maxInputsCSVSize = 64 << 20                  // run --inputs
	maxInputFileSize = 1 << 20                   // run --input-file: one value
)
