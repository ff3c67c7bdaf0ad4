// Package compiler turns a recorded demonstration (a runtime/trace.Trace)
// into a workflow (.cog source and its *ast.File). Compile runs the stages
// below in order; each reads what the ones before it left. The rules
// alone compile every trace: a choice that needs judgement gets a TODO
// placeholder dependency and a warning. When Options.LLM is set, the
// semantic stage asks that model, once per compilation, for the
// dependencies of those choices, the task's goal and its inputs' names
// (semantic*.go); every edit it makes must keep the workflow checking.
// No other stage calls a model.
//
// The stages (stages.go names them; testdata/stages/NAME.txtar shows each
// one's output for one trace; "TaskMind" is the stage's number in the
// method the compiler follows):
//
//	stage             function                 files                                    input → output                                   TaskMind
//	extract           extractOps               extract.go, extract_controls.go,         trace events → ops, one per action of the        1
//	                                           extract_tabs.go, extract_dialogs.go,     language, each with the events it absorbed
//	                                           replay.go
//	android           androidOps               android.go                               Android ops → a first launch, the language's     1
//	                                                                                    key names, swipes
//	navigation-waits  navigationWaits          replay.go                                imported ops → + wait_navigation after each      1
//	                                                                                    asserted navigation
//	describe          (*compiler).enrich,      compile.go, enrich.go,                   ops → each target's description: the fewest      2
//	                  describeTarget           generated_id.go                          attributes that pick it alone in its snapshot
//	item-loop         (*compiler).findLoop     compile.go, loop_list.go,                described ops → the table-row or list-item       3
//	                                           loop_evidence.go, loop_filter.go         loop, its body, its later iterations folded
//	choice-loops      (*compiler).             loop_choice.go                           → a click in every item of a list, chosen by     3
//	                  findNumberLoops                                                   the number the item shows: a loop with an if
//	value-loops       (*compiler).             loop_values.go                           → runs of ops done once per value of a list      3
//	                  findValueLoops                                                    the screen names
//	emit              (*compiler).emit         compile*.go, build.go, key_run.go,       → *ast.File: steps, inputs, anchors, structure   3, 4
//	                                           choice*.go, screen*.go, synth/           dependencies (same, next, row.cell), values
//	                                                                                    read from the screen by synthesized programs
//	repeat-count      (*compiler).             repeat_count.go                          file → runs of identical steps done as many      -
//	                  repeatCounts                                                      times as a number the screen named: repeat N
//	guard             (*compiler).             guard_instruction.go                     file → when no step reads the instruction and    3
//	                  guardInstruction                                                  it names a value: an assert that it names the
//	                                                                                    demonstrated one (never silently wrong)
//	dialogs           (*compiler).             extract_dialogs.go                       file → dialog: and prompt: on the steps that     -
//	                  answerDialogs                                                     opened native dialogs
//	semantic          (*compiler).semantic     semantic.go, semantic_apply.go,          file → dependencies for the TODO choices, goal,  5, 6
//	                                           semantic_reply.go                        input names (only with Options.LLM)
//	api-first         (*compiler).apiFirst     apifirst*.go                             file → a UI run one direct call performs (GET    -
//	                                                                                    form → open(url?q=…), menu path → menu_path)
//	                                                                                    as that call (AXIS; not with NoAPIFirst)
//	print             printer.Format           compile.go                               file → Result.Source                             -
//	check             syntax.Parse,            compile.go, trace_errors.go              source → warnings; errors located at the trace   -
//	                  check.Check                                                       events their steps came from
//	merge             CompileAll, (*merger).   merge.go, merge_align.go,                several demonstrations, each compiled by the     -
//	                  merge                    merge_emit.go, merge_cond.go,            stages above → one file: aligned steps, if
//	                                           merge_programs.go                        visible(…) for a step only some did, if/else if
//	                                                                                    on the instruction's words for different kinds,
//	                                                                                    repeat/while where counts differ
//
// Package compiler/internal/synth is the string-program synthesis that emit (and
// the loops) call: given a demonstrated value and the texts it may come
// from, the simplest program of the language that computes it.
package compiler
