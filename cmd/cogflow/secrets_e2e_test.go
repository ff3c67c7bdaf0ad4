package main

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/driver/browser"
)

// secretForm fills the demo site's order form with a secret and the items
// of a list of secrets, and with texts derived from them: a copy, a
// lower-cased copy in an e-mail address, the PIN in capitals. END is
// replaced by the last steps of each variant.
const secretForm = `task secret_form "Fill the order form with secret values" {
  driver browser
  input pin: secret
  input codes: list<secret>
  op1 = open("BASE/form")
  for code in codes {
    op2 = type(textbox(name: "Phone"), code)
    op3 = copy(textbox(name: "Phone"))
    op4 = type(textbox(name: "Email"), lower(op3) + "@example.org")
    PAUSE
  }
  op5 = type(textbox(name: "Name"), upper(pin))
  op7 = type(combobox(name: "Country"), "Kenya")
  END
}
`

const (
	secretPIN   = "Kq7-Lumen-4402"
	secretCodes = `["Zeta-9931-Qx","Omni-5120-Vr"]`
)

// secretNeedles are the secret values and their simple derivations: none
// may appear in anything a run leaves behind.
func secretNeedles() []string {
	out := []string{secretCodes}
	var codes []string
	_ = json.Unmarshal([]byte(secretCodes), &codes)
	for _, s := range append(codes, secretPIN) {
		out = append(out, s, strings.ToLower(s), strings.ToUpper(s))
	}
	return out
}

// TestE2ESecretsLeaveNothing runs a workflow with a secret and a
// list<secret> input on the demo site in real headless Chromium, with
// screenshots, three ways: to a normal exit, to a failing step, and killed
// with SIGKILL after the submission. After each it searches everything the run left
// (the journal folder with its summaries, cache and screenshots, the
// browser profiles, the temporary folder, standard output and error) for
// every secret and its simple derivations; it checks the screenshot's
// pixels (the fields holding secrets are one uniform colour, the rest of
// the page is not), and that the profile a killed run left is swept by the
// next run.
func TestE2ESecretsLeaveNothing(t *testing.T) {
	needChromium(t)
	s, base := demo(t)
	profiles := t.TempDir()
	t.Setenv("COGFLOW_PROFILES", profiles)
	// Everything the runs and their browsers write to the temporary
	// folder goes to one of the test's own, searched too.
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	args := func(root, wf string) []string {
		return []string{"run", wf, "--input", "pin=" + secretPIN, "--input", "codes=" + secretCodes, "--screenshots", "--yes", "--dir", root}
	}
	src := func(pause, end string) string {
		r := strings.NewReplacer("BASE", base, "PAUSE", pause, "END", end)
		return r.Replace(secretForm)
	}

	t.Run("normal exit", func(t *testing.T) {
		root := t.TempDir()
		wf := writeWorkflow(t, "secret_form.cog", src("", `op6 = click(button(name: "Submit"))`))
		r := runWith(context.Background(), "", args(root, wf)...)
		if r.code != exitOK {
			t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		if st := s.State(); len(st.Submissions) == 0 || st.Submissions[len(st.Submissions)-1].Name != strings.ToUpper(secretPIN) {
			t.Fatalf("the form was not submitted with the PIN: %+v", st.Submissions)
		}
		grepLeftovers(t, r, root, profiles, tmp)
		checkMaskedShot(t, base, filepath.Join(root, "runs"), "op5")
	})

	t.Run("failing step", func(t *testing.T) {
		root := t.TempDir()
		wf := writeWorkflow(t, "secret_form.cog", src("", `op6 = type(textbox(name: "Coupon"), pin)`))
		r := runWith(context.Background(), "", args(root, wf)...)
		if r.code != exitStepFailed || !strings.Contains(r.stderr, "op6") {
			t.Fatalf("exit %d, want %d naming op6\n%s%s", r.code, exitStepFailed, r.stdout, r.stderr)
		}
		grepLeftovers(t, r, root, profiles, tmp)
	})

	t.Run("kill -9", func(t *testing.T) {
		root := t.TempDir()
		wf := writeWorkflow(t, "secret_form.cog", src("", "op6 = click(button(name: \"Submit\"))\n  opw = wait(60)"))
		argv, _ := json.Marshal(args(root, wf))
		var out, errb bytes.Buffer
		cmd := exec.Command(os.Args[0], "-test.run=^TestSecretsChild$")
		cmd.Env = append(os.Environ(), "COGFLOW_SECRETS_CHILD="+string(argv))
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Kill it once it waits after the submission: every secret was
		// typed, copied, typed again in derived forms and posted, and the
		// browser had time to save what it keeps of a form (it writes its
		// databases on a timer of a few seconds).
		deadline := time.Now().Add(90 * time.Second)
		for !journalHas(root, `"step":"op6"`) {
			if time.Now().After(deadline) {
				_ = cmd.Process.Kill()
				_ = cmd.Wait()
				t.Fatalf("the run never submitted\n%s%s", out.String(), errb.String())
			}
			time.Sleep(50 * time.Millisecond)
		}
		time.Sleep(4 * time.Second)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		_ = cmd.Wait()
		left := profileDirs(t, profiles)
		if len(left) != 1 {
			t.Fatalf("after kill -9, %d profiles are left (%q), want the killed run's one", len(left), left)
		}
		grepLeftovers(t, result{code: -1, stdout: out.String(), stderr: errb.String()}, root, profiles, tmp)
		// The next run sweeps the killed run's profile, and removes its own.
		wf2 := writeWorkflow(t, "open.cog", "task o \"Open\" {\n  driver browser\n  op1 = open(\""+base+"/form\")\n}\n")
		if r := runWith(context.Background(), "", "run", wf2, "--dir", t.TempDir()); r.code != exitOK {
			t.Fatalf("next run: exit %d\n%s", r.code, r.stderr)
		}
		if left := profileDirs(t, profiles); len(left) != 0 {
			t.Errorf("profiles left after the next run: %q", left)
		}
	})
}

// TestSecretsChild is the cogflow process that TestE2ESecretsLeaveNothing
// kills; it runs only when that test starts it.
func TestSecretsChild(t *testing.T) {
	argv := os.Getenv("COGFLOW_SECRETS_CHILD")
	if argv == "" {
		t.Skip("run by TestE2ESecretsLeaveNothing")
	}
	var args []string
	if err := json.Unmarshal([]byte(argv), &args); err != nil {
		t.Fatal(err)
	}
	c := &cli{stdout: os.Stdout, stderr: os.Stderr, stdin: strings.NewReader(""), ctx: context.Background()}
	os.Exit(c.main(args))
}

// journalHas reports whether a journal under root holds s.
func journalHas(root, s string) bool {
	files, _ := filepath.Glob(filepath.Join(root, "runs", "*", "journal.jsonl"))
	for _, f := range files {
		if b, err := os.ReadFile(f); err == nil && bytes.Contains(b, []byte(s)) {
			return true
		}
	}
	return false
}

// profileDirs lists the browser profiles in dir.
func profileDirs(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out
}

// grepLeftovers fails for every secret needle found in the run's output,
// in a file name or in the bytes of a file under the given folders.
func grepLeftovers(t *testing.T, r result, dirs ...string) {
	t.Helper()
	needles := secretNeedles()
	for _, n := range needles {
		if strings.Contains(r.stdout+r.stderr, n) {
			t.Errorf("the output holds %q:\n%s%s", n, r.stdout, r.stderr)
		}
	}
	files := 0
	for _, dir := range dirs {
		_ = filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
			if err != nil {
				return nil // a browser's file that went away meanwhile
			}
			data := []byte(path)
			if !info.IsDir() {
				files++
				b, _ := os.ReadFile(path)
				data = append(data, b...)
			}
			for _, n := range needles {
				if bytes.Contains(data, []byte(n)) {
					t.Errorf("%s holds %q", path, n)
				}
			}
			return nil
		})
	}
	if files < 3 {
		t.Errorf("only %d files left by the run: the search proves nothing", files)
	}
}

// checkMaskedShot finds the screenshot taken after step, and checks that
// the boxes of the Name, Email and Phone fields (measured on the same page
// in a browser of the test's own) are one uniform colour, the mask's, and
// that the rest of the screenshot is not.
func checkMaskedShot(t *testing.T, base, runs, step string) {
	t.Helper()
	shots, _ := filepath.Glob(filepath.Join(runs, "*", "step-*-"+step+".png"))
	if len(shots) != 1 {
		t.Fatalf("screenshots of %s: %q", step, shots)
	}
	f, err := os.Open(shots[0])
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	d, err := browser.Start(ctx, driver.Options{ActionTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := d.Do(ctx, driver.Action{Op: "open", Text: base + "/form"}); err != nil {
		t.Fatal(err)
	}
	tree, err := d.Observe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if w := img.Bounds().Dx(); w < 1000 || w > 1300 {
		t.Fatalf("screenshot %d px wide: not the 1280 px viewport at one device pixel per CSS pixel the boxes are measured in", w)
	}
	boxes := map[string]image.Rectangle{}
	for _, e := range tree.Elements {
		if e.Role == "textbox" && (e.Name == "Name" || e.Name == "Email" || e.Name == "Phone") {
			b := e.Bounds
			boxes[e.Name] = image.Rect(int(b.X), int(b.Y), int(b.X+b.W), int(b.Y+b.H))
		}
	}
	if len(boxes) != 3 {
		t.Fatalf("fields found: %v", boxes)
	}
	for name, r := range boxes {
		if c, ok := uniformIn(img, r); !ok || !sameRGBA(c, driver.MaskColor) {
			t.Errorf("the %s field's box %v in %s is not covered (uniform %v, colour %v)", name, r, filepath.Base(shots[0]), ok, c)
		}
	}
	if _, ok := uniformIn(img, img.Bounds()); ok {
		t.Error("the whole screenshot is one colour")
	}
}

func uniformIn(img image.Image, r image.Rectangle) (color.Color, bool) {
	r = r.Intersect(img.Bounds())
	if r.Empty() {
		return nil, false
	}
	first := img.At(r.Min.X, r.Min.Y)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if !sameRGBA(img.At(x, y), first) {
				return first, false
			}
		}
	}
	return first, true
}

func sameRGBA(a, b color.Color) bool {
	if a == nil || b == nil {
		return false
	}
	ar, ag, ab, aa := a.RGBA()
	br, bg, bb, ba := b.RGBA()
	return ar == br && ag == bg && ab == bb && aa == ba
}
