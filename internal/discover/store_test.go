package discover

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A stored skill is written with its sidecar, listed and found again; a
// person's own skill file is never replaced; an edited file whose
// signature no longer matches its sidecar is not validated again.
func TestStore(t *testing.T) {
	c, why := Static(good(), "browser", nil)
	if c == nil {
		t.Fatal(why)
	}
	v := Verdict{Name: c.Name, Accepted: true, Body: c.Bodies[0], Runs: []Run{{Body: BodySteps, Set: 1, OK: true}}}
	dir := t.TempDir()
	if _, err := Write(dir, c, v, "http://127.0.0.1:8088/"); err != nil {
		t.Fatal(err)
	}
	all, err := List(dir, "browser")
	if err != nil || len(all) != 1 || all[0].Sidecar == nil || all[0].Sidecar.Last() == nil || !all[0].Sidecar.Last().Accepted {
		t.Fatalf("List: %+v, %v", all, err)
	}
	if c2, why := all[0].Candidate(nil); c2 == nil || len(c2.Sets) != 3 {
		t.Fatalf("the stored skill is not a candidate again: %v", why)
	}

	own := filepath.Join(SkillsDir(dir, "browser"), "mine.cog")
	if err := os.WriteFile(own, []byte("skill mine() {\n  s1 = back()\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := good()
	p.Name = "mine"
	p.Steps = strings.ReplaceAll(p.Steps, "wiki_search", "mine")
	cm, why := Static(p, "browser", nil)
	if cm == nil {
		t.Fatal(why)
	}
	if _, err := Write(dir, cm, v, ""); err == nil || !strings.Contains(err.Error(), "was not written by discovery") {
		t.Errorf("replacing a person's skill: %v", err)
	}
	if st, err := Find(dir, "browser", "mine"); err != nil || st.Sidecar != nil {
		t.Errorf("Find mine: %+v, %v", st, err)
	} else if _, why := st.Candidate(nil); !strings.Contains(strings.Join(why, ""), "has no validation history") {
		t.Errorf("a person's skill as a candidate: %v", why)
	}

	path := all[0].Path
	src, _ := os.ReadFile(path)
	if err := os.WriteFile(path, []byte(strings.Replace(string(src), "query: text", "query: text, page: number", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := Find(dir, "browser", "wiki_search")
	if err != nil {
		t.Fatal(err)
	}
	if _, why := st.Candidate(nil); !strings.Contains(strings.Join(why, ""), "wiki_search.cog:3:1: the skill declares (query: text, page: number)") {
		t.Errorf("an edited signature: %v", why)
	}
}

// Find takes a skill's name, never a path: a name like ../x would read a
// .cog file outside the driver's folder.
func TestFindNameIsNotAPath(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(cogflowSkillsDir(dir), "x.cog")
	if err := os.MkdirAll(filepath.Dir(outside), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(outside, []byte("skill x() {\n  s1 = back()\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(SkillsDir(dir, "browser"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"../x", "..", "a/b", `..\x`, ""} {
		if st, err := Find(dir, "browser", name); err == nil || !strings.Contains(err.Error(), "is not a skill name") {
			t.Errorf("Find(%q) = %+v, %v; want an error saying it is not a skill name", name, st.Path, err)
		}
	}
}

func cogflowSkillsDir(dir string) string { return filepath.Dir(SkillsDir(dir, "browser")) }

// A stored skill whose sidecar was edited so that it no longer checks
// anything, or is validated on fewer sets than discovery demands, or names
// another driver than the folder it lies in, is not validated again.
func TestStoredCandidateChecksItsSidecar(t *testing.T) {
	cases := []struct {
		name string
		edit func(s *Sidecar)
		want string
	}{
		{"as written", func(s *Sidecar) {}, ""},
		{"two sets", func(s *Sidecar) { s.ParameterSets = s.ParameterSets[:2] }, "holds 2 parameter sets, at least 3 needed"},
		{"no final state", func(s *Sidecar) { s.FinalState = FinalState{} }, "final_state: checks nothing"},
		{"blank shows", func(s *Sidecar) { s.FinalState = FinalState{Shows: []string{""}} }, "final_state.shows[0]: is empty"},
		{"another driver", func(s *Sidecar) { s.Driver = "android" }, `is for the "android" driver, but lies in the browser skills`},
		{"a set without a value", func(s *Sidecar) { delete(s.ParameterSets[1], "query") }, `parameter_sets[1]: no value for "query"`},
		{"unknown effect", func(s *Sidecar) { s.Effect = "harmless" }, `effect must be "read_only" or "mutating"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, why := Static(good(), "browser", nil)
			if c == nil {
				t.Fatal(why)
			}
			dir := t.TempDir()
			if _, err := Write(dir, c, Verdict{Name: c.Name, Accepted: true, Body: c.Bodies[0]}, ""); err != nil {
				t.Fatal(err)
			}
			st, err := Find(dir, "browser", c.Name)
			if err != nil {
				t.Fatal(err)
			}
			tc.edit(st.Sidecar)
			cand, why := st.Candidate(nil)
			got := strings.Join(why, "\n")
			switch {
			case tc.want == "" && cand == nil:
				t.Fatalf("rejected: %s", got)
			case tc.want != "" && (cand != nil || !strings.Contains(got, tc.want)):
				t.Fatalf("reasons %q, want a rejection with %q", got, tc.want)
			}
		})
	}
}

// A person's skill of the same name in another file of the folder is
// never hidden: the project's library would silently take one of the two.
func TestWriteKeepsAPersonsSkillOfTheSameName(t *testing.T) {
	c, why := Static(good(), "browser", nil)
	if c == nil {
		t.Fatal(why)
	}
	dir := t.TempDir()
	own := filepath.Join(SkillsDir(dir, "browser"), "mine.cog")
	if err := os.MkdirAll(filepath.Dir(own), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(own, []byte("skill other() {\n  s1 = back()\n}\n\nskill wiki_search(query: text) {\n  s1 = back()\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	v := Verdict{Name: c.Name, Accepted: true, Body: c.Bodies[0]}
	paths, err := Write(dir, c, v, "")
	if err == nil || !strings.Contains(err.Error(), "mine.cog already declares skill wiki_search") {
		t.Fatalf("Write = %v, %v; want a refusal naming mine.cog", paths, err)
	}
	if _, err := os.Stat(filepath.Join(SkillsDir(dir, "browser"), "wiki_search.cog")); err == nil {
		t.Error("wiki_search.cog was written")
	}
	// Written by discovery before: replaced.
	if err := os.Remove(own); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := Write(dir, c, v, ""); err != nil {
			t.Fatal(err)
		}
	}
}

// A sidecar that is not JSON is reported at its line and column; one of
// the wrong shape by its field.
func TestLoadBrokenSidecar(t *testing.T) {
	cases := []struct{ json, want string }{
		{"{\"name\": \"x\",\n  \"effect\": \"read_only\",, }\n", "x.json:2:25: invalid character ','"},
		{"{\"name\": \"x\",\n  \"effect\": 3}\n", "x.json: effect must be string, not number"},
		{"{\"name\": \"x\"", "x.json:1:12: unexpected end of JSON input"},
		{"", "x.json:1:1: unexpected end of JSON input"},
	}
	for _, c := range cases {
		dir := t.TempDir()
		sk := SkillsDir(dir, "browser")
		if err := os.MkdirAll(sk, 0o755); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(sk, "x.cog"), []byte("skill x() {\n  s1 = back()\n}\n"), 0o644)
		os.WriteFile(filepath.Join(sk, "x.json"), []byte(c.json), 0o644)
		if _, err := Find(dir, "browser", "x"); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.json, err, c.want)
		}
	}
}

// List reads past a broken sidecar: the skill is listed with its error,
// which is what validating it says.
func TestListBrokenSidecar(t *testing.T) {
	dir := t.TempDir()
	sk := SkillsDir(dir, "browser")
	if err := os.MkdirAll(sk, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(sk, "a.cog"), []byte("skill a() {\n  s1 = back()\n}\n"), 0o644)
	os.WriteFile(filepath.Join(sk, "a.json"), []byte("{"), 0o644)
	os.WriteFile(filepath.Join(sk, "b.cog"), []byte("skill b() {\n  s1 = back()\n}\n"), 0o644)
	all, err := List(dir, "browser")
	if err != nil || len(all) != 2 || all[0].Err == nil || all[1].Err != nil {
		t.Fatalf("List: %+v, %v", all, err)
	}
	if c, why := all[0].Candidate(nil); c != nil || !strings.Contains(strings.Join(why, ""), "a.json:1:1: unexpected end of JSON input") {
		t.Errorf("the broken skill as a candidate: %v", why)
	}
}
