package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestSecretInputsAndRunLog(t *testing.T) {
	src := "task t \"x\" {\n  input user: text = \"a\"\n  input password: secret\n  input pin : secret\n}\n"
	if got := strings.Join(secretInputs(src), ","); got != "password,pin" {
		t.Errorf("secretInputs = %q, want password,pin", got)
	}
	tests := []struct {
		name, journal         string
		failed, where, errMsg string
		calls                 int
		ran                   time.Duration
	}{
		{
			name: "the first failing step",
			journal: `{"type":"run_started","id":"r1"}
{"type":"step","step":"op1","line":5,"op":"open","outcome":"ok"}
{"type":"step","step":"op2","line":6,"op":"click","outcome":"failed","error":"no element matches text(id: \"x\")\nmore"}
{"type":"step","step":"op3","line":7,"op":"click","outcome":"failed","error":"later"}
`,
			failed: "op2", where: "op2:6 click", errMsg: `no element matches text(id: "x")`,
		},
		{
			name: "model calls, counted or not",
			journal: `{"type":"step","step":"op1","line":5,"op":"click","source":"llm","tokens":{"in":10,"out":2,"calls":2},"outcome":"ok"}
{"type":"step","step":"op2","line":6,"op":"type","source":"llm","outcome":"ok"}
{"type":"step","step":"op3","line":7,"op":"type","source":"cache","outcome":"ok"}
{"type":"run_finished","outcome":"ok","duration_ms":401.5}
`,
			calls: 3, ran: 401500 * time.Microsecond,
		},
		{
			name:    "not a journal line",
			journal: "garbage\n{\"type\":\"step\",\"step\":\"op1\",\"op\":\"click\",\"outcome\":\"skipped\"}\n",
			failed:  "op1", where: "op1:0 click", errMsg: "skipped",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			run := filepath.Join(dir, "runs", "r1")
			if err := os.MkdirAll(run, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(run, "journal.jsonl"), []byte(tc.journal), 0o644); err != nil {
				t.Fatal(err)
			}
			l := readRunLog(dir)
			if l.failed != tc.failed || l.where != tc.where || l.err != tc.errMsg || l.modelCalls != tc.calls || l.ran != tc.ran {
				t.Errorf("readRunLog = %+v, want %q %q %q calls %d", l, tc.failed, tc.where, tc.errMsg, tc.calls)
			}
		})
	}
}

func TestVerdict(t *testing.T) {
	exit3 := errors.New("exit status 3")
	tests := []struct {
		name      string
		log       runLog
		err       error
		out       string
		replay    *Reward
		want      string
		silent    bool
		otherSeed bool
	}{
		{name: "solved", replay: &Reward{Done: true, Raw: 1}, want: ""},
		{name: "a step failed", log: runLog{failed: "op3", where: "op3:8 click", err: "no element matches"}, err: exit3,
			replay: &Reward{Done: true, Raw: -1}, want: "op3:8 click: no element matches"},
		{name: "no journal", err: exit3, out: "starting\ncogflow run: no Chromium\n", want: "run: cogflow run: no Chromium"},
		{name: "never ended", want: "(end): every step ran but the episode did not end"},
		{name: "wrong but ok", replay: &Reward{Done: true, Raw: -1, Reason: "x"}, silent: true,
			want: "(all ok): SILENTLY WRONG: every step reported ok, the task's checker gave -1 (x)"},
		{name: "partly wrong but ok", replay: &Reward{Done: true, Raw: 0}, silent: true,
			want: "(all ok): SILENTLY WRONG: every step reported ok, the task's checker gave 0 ()"},
		{name: "another seed, not generalized", replay: &Reward{Done: true, Raw: -1, Reason: "x"}, otherSeed: true, silent: true,
			want: "(all ok): SILENTLY WRONG (not generalized): every step reported ok, the task's checker gave -1 (x)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := outcome{reward: tc.replay, log: tc.log, stepsOK: tc.err == nil && tc.log.failed == ""}
			step, msg := verdict(o, tc.err, tc.out, !tc.otherSeed)
			got := step + ": " + msg
			if step == "" && msg == "" {
				got = ""
			}
			if got != tc.want || o.silentlyWrong() != tc.silent {
				t.Errorf("verdict = %q, silent %v; want %q, %v", got, o.silentlyWrong(), tc.want, tc.silent)
			}
		})
	}
}
