package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// runLog is what the harness reads from a run's journal.
type runLog struct {
	failed     string        // the first step that did not end ok, "" when none
	where      string        // that step as "name:line op"
	err        string        // its error's first line
	modelCalls int           // model requests the steps made
	ran        time.Duration // the run's duration by its journal (run_finished)
}

// readRunLog reads the journals under a run's --dir.
func readRunLog(runDir string) runLog {
	var l runLog
	journals, _ := filepath.Glob(filepath.Join(runDir, "runs", "*", "journal.jsonl"))
	for _, j := range journals {
		f, err := os.Open(j)
		if err != nil {
			continue
		}
		l.add(f)
		f.Close()
	}
	return l
}

// add reads one journal: the step lines' outcomes and model calls.
func (l *runLog) add(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var s struct {
			Type, Step, Op, Outcome, Error, Source string
			Line                                   int
			Tokens                                 *struct{ Calls int }
			DurationMS                             float64 `json:"duration_ms"`
		}
		if json.Unmarshal(sc.Bytes(), &s) != nil {
			continue
		}
		if s.Type == "run_finished" {
			l.ran += time.Duration(s.DurationMS * float64(time.Millisecond))
		}
		if s.Type != "step" {
			continue
		}
		switch {
		case s.Tokens != nil && s.Tokens.Calls > 0:
			l.modelCalls += s.Tokens.Calls
		case s.Source == "llm":
			l.modelCalls++ // a journal of a model step with no count
		}
		if l.failed == "" && s.Outcome != "" && s.Outcome != "ok" {
			l.failed = s.Step
			l.where = fmt.Sprintf("%s:%d %s", s.Step, s.Line, s.Op)
			l.err = firstLine(s.Error, s.Outcome)
		}
	}
}
