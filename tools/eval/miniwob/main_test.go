package main

import (
	"strings"
	"testing"
)

func TestParseOptions(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want options // the fields compared: mode, seed, replaySeed, fresh, parallel, tasks
		err  string
	}{
		{name: "replay by default", args: nil, want: options{mode: "replay", seed: "1", replaySeed: "1"}},
		{name: "replay flags without the mode", args: []string{"-seed", "3", "-replay-seed", "4"},
			want: options{mode: "replay", seed: "3", replaySeed: "4"}},
		{name: "eval defaults", args: []string{"eval"}, want: options{mode: "eval", seed: "1", replaySeed: "1", fresh: 10, parallel: 2, demos: "auto"}},
		{name: "eval flags", args: []string{"eval", "-seed", "3", "-fresh", "2", "-parallel", "2", "-tasks", "a,b", "-demos", "auto"},
			want: options{mode: "eval", seed: "3", replaySeed: "3", fresh: 2, parallel: 2, tasks: "a,b", demos: "auto"}},
		{name: "a number of demonstrations", args: []string{"eval", "-demos", "3"},
			want: options{mode: "eval", seed: "1", replaySeed: "1", fresh: 10, parallel: 2, demos: "3"}},
		{name: "a bad number of demonstrations", args: []string{"eval", "-demos", "many"}, err: `-demos "many"`},
		{name: "an unknown mode", args: []string{"bench"}, err: `unknown mode "bench"`},
		{name: "no replay seed in eval", args: []string{"eval", "-replay-seed", "2"}, err: "-replay-seed"},
		{name: "a seed that cannot go into a URL", args: []string{"eval", "-seed", "a&b"}, err: `seed "a&b"`},
		{name: "no fresh seeds", args: []string{"eval", "-fresh", "0"}, err: "at least 1"},
		{name: "a stray argument", args: []string{"eval", "x"}, err: "unexpected arguments"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseOptions(tc.args)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got.fixtures, got.out, got.chrome, got.verbose = "", "", "", false
			if got != tc.want {
				t.Errorf("parseOptions = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestWantDemosAndMergedLine(t *testing.T) {
	for _, tc := range []struct {
		flag, task string
		want       int
		err        bool
	}{
		{"auto", "email-inbox", 4, false},
		{"auto", "email-inbox-star-reply", 2, false},
		{"auto", "login-user-popup", 3, false},
		{"auto", "click-button", 1, false},
		{"2", "click-button", 2, false},
		{"0", "x", 0, true},
		{"99", "x", 0, true},
	} {
		got, err := wantDemos(tc.flag, tc.task)
		if got != tc.want || (err != nil) != tc.err {
			t.Errorf("wantDemos(%q, %q) = %d, %v; want %d (error %v)", tc.flag, tc.task, got, err, tc.want, tc.err)
		}
	}
	if demoSeed("7", 0) != "7" || demoSeed("7", 2) != "7-d3" {
		t.Errorf("demo seeds %q %q", demoSeed("7", 0), demoSeed("7", 2))
	}
	var b strings.Builder
	printMerged(&b, []*taskEval{{task: "a", demos: []*demonstration{{variant: "star"}, {variant: "reply"}}}, {task: "b", demos: []*demonstration{{}}}})
	if got := b.String(); got != "\ndemonstrations merged: a 2 (star, reply)\n" {
		t.Errorf("printMerged wrote %q", got)
	}
}
