package main

import (
	"bytes"
	"flag"
	"os"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the golden tables in testdata/tables.txtar")

// runs makes n outcomes on seeds 1-1 …: the first ok solved, then bad
// ones failing as fail says ("silent": every step ok and a wrong answer;
// a step name: failed there).
func runs(n, ok int, fail string) []outcome {
	out := make([]outcome, n)
	for i := range out {
		o := outcome{seed: freshSeeds("1", n)[i], took: 1500 * time.Millisecond}
		switch {
		case i < ok:
			o.reward, o.stepsOK = &Reward{Done: true, Raw: 1}, true
		case fail == "silent":
			o.reward, o.stepsOK = &Reward{Done: true, Raw: -1}, true
			o.step, o.message = "(all ok)", "SILENTLY WRONG (not generalized): every step reported ok, the task's checker gave -1 ()"
		default:
			o.log = runLog{failed: fail, where: fail + ":7 click", err: "no element matches checkbox(id: \"ch0\")", modelCalls: 0}
			o.step, o.message = o.log.where, o.log.err
		}
		o.log.ran, o.waited = time.Second, 100*time.Millisecond
		out[i] = o
	}
	return out
}

// evalResults are four tasks of the shapes the table must show: solved
// everywhere, a failed compilation, a model step with nothing to answer
// it, a task of no kind.
func evalResults() []*taskEval {
	demo := func(task string, raw float64, err string) *demonstration {
		return &demonstration{task: task, seed: "1", reward: &Reward{Done: true, Raw: raw}, err: err, took: 3 * time.Second}
	}
	counts := func(src string) stepCounts {
		c, err := classifySource("t.cog", []byte("task t \"x\" {\n  driver browser\n  "+src+"\n}\n"))
		if err != nil {
			panic(err)
		}
		return c
	}
	wf := workflow{src: "task", took: 100 * time.Millisecond}
	return []*taskEval{
		{task: "enter-text", kind: 1, demo: demo("enter-text", 1, ""), took: 40 * time.Second,
			counts:   counts(`op1 = type(textbox(id: "tt"), nonempty(text(id: "query").text))` + "\n  op2 = click(button(name: \"Submit\"))"),
			compiled: variantEval{w: wf, runs: runs(4, 4, "")},
			literal:  variantEval{w: wf, runs: runs(4, 1, "silent")}},
		{task: "click-button", kind: 2, demo: demo("click-button", -1, "demonstration: no visible element button"), took: 10 * time.Second,
			compiled: variantEval{w: workflow{err: "compile: trace.json: no events"}},
			literal:  variantEval{w: workflow{err: "compile: trace.json: no events"}}},
		{task: "book-flight", kind: 5, demo: demo("book-flight", 1, ""), took: 30 * time.Second,
			counts:   counts(`op1 = click(button(name: "Go"))` + "\n  op3 = click(match_element<\"TODO\">(op1))"),
			compiled: variantEval{w: wf, runs: runs(4, 1, "op3")},
			literal:  variantEval{w: wf, runs: runs(4, 0, "op3")}},
		{task: "odd-task", kind: 0, demo: demo("odd-task", 1, ""), took: 20 * time.Second,
			counts:   counts(`op1 = click(button(name: "Go"))`),
			compiled: variantEval{w: wf, runs: runs(4, 2, "silent")},
			literal:  variantEval{w: wf, runs: runs(4, 2, "silent")}},
	}
}

// TestTables prints the eval table and its summary, and the replay table,
// for results made by hand, against testdata/tables.txtar (-update
// rewrites it).
func TestTables(t *testing.T) {
	results := evalResults()
	results[2].compiled.runs[1].log.modelCalls = 2 // a run that asked a model anyway
	var evalOut, replayOut bytes.Buffer
	printEvalTable(&evalOut, results, 4)
	printEvalSummary(&evalOut, results, 4, 95*time.Second)
	var replays []replayResult
	for _, r := range results {
		rr := replayResult{task: r.task, demo: r.demo, w: r.compiled.w, ran: r.compiled.w.err == ""}
		if rr.ran {
			rr.run = r.compiled.runs[len(r.compiled.runs)-1]
		}
		replays = append(replays, rr)
	}
	printReplayTable(&replayOut, replays, false, 61*time.Second)
	got := map[string][]byte{"eval.txt": evalOut.Bytes(), "replay.txt": replayOut.Bytes()}

	const golden = "testdata/tables.txtar"
	if *update {
		ar := &txtar.Archive{Comment: []byte("Golden tables of TestTables; go test ./tools/eval/miniwob -run TestTables -update rewrites them.\n")}
		for _, name := range []string{"eval.txt", "replay.txt"} {
			ar.Files = append(ar.Files, txtar.File{Name: name, Data: got[name]})
		}
		if err := os.WriteFile(golden, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ar, err := txtar.ParseFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range ar.Files {
		if string(got[f.Name]) != string(f.Data) {
			t.Errorf("%s differs from %s:\n--- got\n%s\n--- want\n%s", f.Name, golden, got[f.Name], f.Data)
		}
	}
	if len(ar.Files) != len(got) {
		t.Errorf("%s has %d files, want %d", golden, len(ar.Files), len(got))
	}
}

// TestSummarize checks the numbers under the table: the means by kind
// (a task that did not compile counts 0), model calls, runs stopped at a
// model step, silently wrong runs, and the task of no kind left out.
func TestSummarize(t *testing.T) {
	results := evalResults()
	results[0].compiled.runs[0].log.modelCalls = 1
	s := summarize(results, 4)
	checks := []struct {
		name      string
		got, want any
	}{
		{"tasks", s.tasks, 4},
		{"demonstrations solved", s.solvedDemos, 3},
		{"kinds 1-3", s.fixed, 2},
		{"kinds 4-5", s.varying, 1},
		{"compiled, kinds 1-3", s.fixedCompiled, 50.0},
		{"literal, kinds 1-3", s.fixedLiteral, 12.5},
		{"compiled, kinds 4-5", s.varyingCompiled, 25.0},
		{"literal, kinds 4-5", s.varyingLiteral, 0.0},
		{"model calls, kinds 1-3", s.fixedCalls, 1},
		{"stopped at a model step, kinds 4-5", s.varyingUnanswer, 3},
		{"silently wrong, compiled", s.silentCompiled, 2},
		{"silently wrong, literal", s.silentLiteral, 5},
		{"no kind", strings.Join(s.unknownKind, ","), "odd-task"},
		{"runs", s.runs, 24},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
}
