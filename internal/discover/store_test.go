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
