package journal

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the golden outputs in testdata/runs.txtar")

// TestRenderGolden unpacks testdata/runs.txtar — a .cogflow root as written
// by cogflow, plus show/ID.txt and list.txt — and compares what Render and
// RenderList print with those.
func TestRenderGolden(t *testing.T) {
	const golden = "testdata/runs.txtar"
	ar, err := txtar.ParseFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	want := map[string]*txtar.File{}
	for i := range ar.Files {
		f := &ar.Files[i]
		if strings.HasPrefix(f.Name, "show/") || f.Name == "list.txt" {
			want[f.Name] = f
			continue
		}
		p := filepath.Join(root, filepath.FromSlash(f.Name))
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, f.Data, 0o644))
	}

	got := map[string][]byte{}
	infos, err := List(root)
	must(t, err)
	var buf bytes.Buffer
	must(t, RenderList(&buf, infos))
	got["list.txt"] = buf.Bytes()
	for _, info := range infos {
		if info.Problem != "" {
			continue
		}
		run, err := Load(root, info.ID)
		must(t, err)
		var buf bytes.Buffer
		must(t, Render(&buf, run))
		got["show/"+info.ID+".txt"] = buf.Bytes()
	}

	if *update {
		var files []txtar.File
		for _, f := range ar.Files {
			if want[f.Name] == nil {
				files = append(files, f)
			}
		}
		files = append(files, txtar.File{Name: "list.txt", Data: got["list.txt"]})
		for _, info := range infos {
			if b, ok := got["show/"+info.ID+".txt"]; ok {
				files = append(files, txtar.File{Name: "show/" + info.ID + ".txt", Data: b})
			}
		}
		ar.Files = files
		must(t, os.WriteFile(golden, txtar.Format(ar), 0o644))
		return
	}
	for name, b := range got {
		w, ok := want[name]
		if !ok {
			t.Errorf("%s: no golden output; run go test -update", name)
			continue
		}
		if !bytes.Equal(b, w.Data) {
			t.Errorf("%s differs\n--- got\n%s--- want\n%s", name, b, w.Data)
		}
	}
	for name := range want {
		if got[name] == nil {
			t.Errorf("%s: golden output for a run that is gone", name)
		}
	}
}

// TestRenderContents checks what the golden files must show, so an update
// cannot quietly lose it.
func TestRenderContents(t *testing.T) {
	ar, err := txtar.ParseFile("testdata/runs.txtar")
	must(t, err)
	files := map[string]string{}
	for _, f := range ar.Files {
		files[f.Name] = string(f.Data)
	}
	for name, wants := range map[string][]string{
		"show/20261123T011530.123Z-1f0c.txt": {
			"workflow  examples/keyword_intro.cog", "task      keyword_intro", "outcome   ok", "duration  5.0s",
			"steps     7 ok", "tokens    2240 in, 27 out", `password="[secret]"`,
			"LINE  STEP   OP           OUTCOME  DURATION  SOURCE",
			"  12  op4    click        ok       2.3s      llm",
		},
		"show/20261123T020000.000Z-a1b2.txt": {
			"outcome     interrupted: interrupted by signal", "iterations  2 done",
			"LOOP                                 ERROR",
			`failed   1.8s      llm         paper[2] "BERT"                      match_element: 2 candidates link "BERT (language model)" link "BERT (disambiguation)"`,
			`interrupted at op5 (line 9) in paper[2] "BERT"`,
		},
		"show/20261123T021500.500Z-c3d4.txt": {
			"resumes     20261123T020000.000Z-a1b2", "outcome     unfinished", "2 done before resuming",
			"stopped after op5 (line 9)", "journal line 6 is incomplete",
		},
		"show/20261122T180000.000Z-77e1.txt": {
			`outcome   bad_workflow: examples/broken.cog:3:5: unknown action "clik"`, "row       4", "steps     none", // the 4th data row: "row":3 counts from 0
		},
		"list.txt": {
			"20261123T030000.000Z-dead", "unreadable", "20261123T021500.500Z-c3d4  2026-11-23 02:15:00",
			"unfinished*", "interrupted", "bad_workflow",
		},
	} {
		for _, w := range wants {
			if !strings.Contains(files[name], w) {
				t.Errorf("%s lacks %q:\n%s", name, w, files[name])
			}
		}
	}
	if strings.Contains(files["list.txt"], "not-a-run") {
		t.Error("list shows a directory that is not a run")
	}
}
