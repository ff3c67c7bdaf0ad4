package browser

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/cogflow/cogflow/compiler"
	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/trace"
)

const filesPage = `<!doctype html><title>Files</title>
<button id=del onclick="log(confirm('Delete the draft?') ? 'deleted' : 'kept')">Delete draft</button>
<button id=ren onclick="log('renamed ' + prompt('New name?', 'Folder'))">Rename folder</button>
<button id=empty onclick="log(confirm('Empty the trash?') ? 'emptied' : 'not emptied')">Empty trash</button>
<label for=att>Attachment</label><input id=att type=file>
<ul id=log></ul>
<script>
function log(s) { const li = document.createElement('li'); li.textContent = s; document.getElementById('log').append(li); }
document.getElementById('att').addEventListener('change', (e) => log('attached ' + [...e.target.files].map((f) => f.name).join()));
</script>`

// TestRecordDialogsAndUpload: dialogs the person answers and a file they
// choose are recorded, compile to dialog:/prompt: and upload(…), and the
// workflow replays them with the same effect.
func TestRecordDialogsAndUpload(t *testing.T) {
	needChromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	s := newSite(t)
	url := s.page("/files", filesPage)
	d, h, wait := startRecording(t, ctx, url)
	dir := t.TempDir()
	report := filepath.Join(dir, "report.pdf")
	if err := os.WriteFile(report, []byte("%PDF"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, a := range []struct {
		id     string
		accept bool
		prompt string
	}{{"#del", true, ""}, {"#ren", true, "Archive"}, {"#empty", false, ""}} {
		waitDialog, handle := h.p.HandleDialog()
		done := make(chan struct{})
		go func() { h.click(a.id); close(done) }()
		waitDialog()
		if err := handle(&proto.PageHandleJavaScriptDialog{Accept: a.accept, PromptText: a.prompt}); err != nil {
			t.Fatal(err)
		}
		<-done
	}
	h.click("#att") // opens the chooser: headless has none, the files are set
	if err := h.waitFor("#att").SetFiles([]string{report}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	h.stopChord()
	tr := wait()
	saveTrace(t, tr, s.URL, "dialogs.trace.json")
	want := "deleted,renamed Archive,not emptied,attached report.pdf"
	if got := eval(t, d, "[...document.querySelectorAll('#log li')].map((l) => l.textContent).join()"); got != want {
		t.Fatalf("the demonstration did %q, want %q", got, want)
	}

	var dialogs []trace.Dialog
	var files []string
	for _, e := range tr.Events {
		switch e.Kind {
		case trace.KindDialog:
			dialogs = append(dialogs, *e.Dialog)
			if c := tr.Event(e.Cause); c == nil || c.Kind != trace.KindClick {
				t.Errorf("%s: the dialog's cause %q is not the click", e.ID, e.Cause)
			}
		case trace.KindUpload:
			files = append(files, e.Files...)
		case trace.KindChange, trace.KindInput:
			if e.Target != nil && e.Target.ID == "att" {
				t.Errorf("%s: the file input's %s was recorded besides the upload", e.ID, e.Kind)
			}
		}
	}
	wantDialogs := []trace.Dialog{
		{Type: "confirm", Message: "Delete the draft?", Accept: true},
		{Type: "prompt", Message: "New name?", Accept: true, Prompt: "Archive"},
		{Type: "confirm", Message: "Empty the trash?"},
	}
	if len(dialogs) != len(wantDialogs) {
		t.Fatalf("dialogs %+v, want %+v", dialogs, wantDialogs)
	}
	for i := range wantDialogs {
		if dialogs[i] != wantDialogs[i] {
			t.Errorf("dialog %d: %+v, want %+v", i, dialogs[i], wantDialogs[i])
		}
	}
	if strings.Join(files, ",") != "report.pdf" {
		t.Errorf("uploaded %q", files)
	}

	out, err := compiler.Compile(tr, compiler.Options{Filename: "dialogs.trace.json"})
	if err != nil {
		t.Fatalf("compile: %v\n%s", err, out.Source)
	}
	src := string(out.Source)
	t.Logf("compiled:\n%s", src)
	for _, w := range []string{`dialog: "accept")`, `dialog: "accept", prompt: "Archive")`, `dialog: "dismiss")`, `upload(`} {
		if !strings.Contains(src, w) {
			t.Errorf("the workflow lacks %s", w)
		}
	}

	// Replay on a fresh page: the same effects, the file given as input.
	file, task, info := checkedTask(t, "dialogs.cog", out.Source)
	open(t, d, "about:blank")
	in := runtime.New(file, task, info, d, runtime.Options{Inputs: map[string]string{"attachment": report}})
	if _, err := in.Run(ctx); err != nil {
		t.Fatalf("run: %v", err)
	}
	if got := eval(t, d, "[...document.querySelectorAll('#log li')].map((l) => l.textContent).join()"); got != want {
		t.Errorf("the replay did %q, want %q", got, want)
	}
}
