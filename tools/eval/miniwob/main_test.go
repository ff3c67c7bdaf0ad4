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
		{name: "eval defaults", args: []string{"eval"}, want: options{mode: "eval", seed: "1", replaySeed: "1", fresh: 10, parallel: 2, demos: "1"}},
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
