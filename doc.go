// Package cogflow runs GUI workflows written in the cogflow language: a
// task of steps (open, type, click, …) on a browser, an Android device or
// the Windows desktop, where the choices that need judgement are written
// as cognitive dependencies that a model, a person or an exact match
// answers at run time.
//
// It is the library entry point: the command line (cmd/cogflow) is one
// user of it, a test another. The pipeline, each stage a package:
//
//	.cog source
//	  │ Load, LoadSource
//	  ├─ parse              lang/syntax  → lang/ast
//	  ├─ check              lang/check   → types, references (Workflow.Check)
//	  │    └─ knowledge base  stdlib/kb  (Options.Knowledge, ProjectDir)
//	  ▼ Workflow.Run
//	  ├─ driver             runtime/driver (browser, android, uia; RunOptions.Driver)
//	  ├─ answerer cascade   runtime: exact match → RunOptions.Answerers
//	  │                     (ModelAnswerer: answer cache → model; runtime.AskAnswerer)
//	  ├─ journal            runtime/journal (RunOptions.JournalDir; resume)
//	  └─ interpreter        runtime.Interp: inputs → steps in order → loops
//	                        over lists found at run time; each step anchors its
//	                        element on the live UI and acts through the driver
//
// Beside the run: Compile turns a demonstration trace (runtime/trace,
// written by the recorders) into a workflow (package compiler), and
// Workflow.Cost estimates the model calls, tokens and dollars of a run.
//
// A loaded Workflow is immutable: Run it any number of times, concurrently
// too (a batch runs its rows in parallel), each run with its own driver.
//
// Errors: Load returns diagnostics (file:line:col, a message, notes).
// Run's errors are told apart with errors.As and errors.Is: *StepError
// (a step failed; its position and name), *AnchorError (no element
// matched a description), ErrInterrupted (*InterruptedError: stopped),
// ErrGone (the browser or device went away).
package cogflow
