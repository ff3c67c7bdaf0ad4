package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cogflow/cogflow/runtime/driver/android/adbtest"
)

// End-to-end tests of the android skill library (stdlib/skills/android.cog)
// over the ADB protocol against the simulated phone: a task calls the
// library's skills without declaring them, `cogflow run` performs their
// intents and content queries, and the workflow itself asserts what each
// screen shows.

// androidSkillsTask adds a contact through the app's screens, finds it
// with the contacts provider, texts the first match, then opens a URL, the
// dialer and a settings page, checking each screen.
const androidSkillsTask = `task skills_tour "Find the Smiths, text the first one, and visit a few screens" {
  driver android
  input who: text = "smith"
  input message: text = "See you at 5; bring $HOME 'snacks'"

  op1 = launch("com.example.contacts/.MainActivity")
  op2 = click(button(name: "Add contact"))
  op3 = type(textbox(id: "name_input"), "O'Hara Smith")
  op4 = type(textbox(id: "phone_input"), "5550111")
  op5 = click(button(name: "Save"))
  op6 = find_contact(who)
  op7 = assert(length(op6) == 2, "two Smiths, the new one included")
  op8 = assert(op6[1] == "display_name=O'Hara Smith, data1=5550111", "the new contact's row")
  op9 = send_text(regex("data1=(.*)$", first(op6)), message)
  op10 = assert(message)
  op11 = view_url("https://example.com/?q=cogflow")
  op12 = assert("https://example.com/?q=cogflow")
  op13 = dial("+1 555-0100")
  op14 = assert("+1 555-0100")
  op15 = open_settings("WIFI_SETTINGS")
  op16 = assert("Wi-Fi")
}
`

func TestAndroidSkillsE2E(t *testing.T) {
	srv, err := adbtest.NewServer(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	app := srv.App()
	cog := writeWorkflow(t, "skills_tour.cog", androidSkillsTask)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	r := runWith(ctx, "", "run", cog, "--adb", srv.Addr(), "--yes", "--dir", t.TempDir())
	if r.code != exitOK {
		t.Fatalf("run: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	f, ok := app.Foreign()
	if !ok || f.Screen != adbtest.ScreenDeviceSettings || f.Fields["page"] != "Wi-Fi" {
		t.Errorf("the run ended on %+v, want the Wi-Fi settings", f)
	}
	if !hasContact(app.Contacts(), "O'Hara Smith", "5550111") {
		t.Errorf("contacts: %+v", app.Contacts())
	}
}

// The message the skill sends reaches the compose screen whole, with the
// shell's special characters in it, as the first Smith's number.
func TestAndroidSkillSendText(t *testing.T) {
	srv, err := adbtest.NewServer(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	msg := `it's 5 > 4; $(reboot) "ok"`
	src := "task t \"Text the first Smith\" {\n  driver android\n  input message: text\n\n" +
		"  op1 = find_contact(\"smith\")\n  op2 = send_text(regex(\"data1=(.*)$\", first(op1)), message)\n}\n"
	cog := writeWorkflow(t, "send.cog", src)
	r := runWith(context.Background(), "", "run", cog, "--adb", srv.Addr(), "--yes", "--dir", t.TempDir(), "--input", "message="+msg)
	if r.code != exitOK {
		t.Fatalf("run: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	f, _ := srv.App().Foreign()
	if f.Screen != adbtest.ScreenCompose || f.Fields["to"] != "+1 555-0123" || f.Fields["body"] != msg {
		t.Errorf("compose screen %+v", f)
	}
}

// The example workflow texts the contact it finds.
func TestAndroidSkillsExample(t *testing.T) {
	srv, err := adbtest.NewServer(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := runWith(context.Background(), "", "run", filepath.Join("..", "..", "examples", "android_text_contact.cog"),
		"--adb", srv.Addr(), "--yes", "--dir", t.TempDir(), "--input", "who=alice", "--input", "message=Lunch at 1?")
	if r.code != exitOK {
		t.Fatalf("run: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	f, _ := srv.App().Foreign()
	if f.Screen != adbtest.ScreenCompose || f.Fields["to"] != "+1 555-0100" || f.Fields["body"] != "Lunch at 1?" {
		t.Errorf("compose screen %+v", f)
	}
}

// add_contact saves the contact the INSERT intent's form was filled with;
// the provider has it at once.
func TestAndroidSkillAddContact(t *testing.T) {
	srv, err := adbtest.NewServer(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	src := "task t \"Add a contact and find it\" {\n  driver android\n" +
		"  op1 = add_contact(\"Dana O'Neil\", \"+1 555-0142\")\n" +
		"  op2 = find_contact(\"o'neil\")\n" +
		"  op3 = assert(op2 == [\"display_name=Dana O'Neil, data1=+1 555-0142\"], \"the provider has the new contact\")\n}\n"
	cog := writeWorkflow(t, "add.cog", src)
	r := runWith(context.Background(), "", "run", cog, "--adb", srv.Addr(), "--yes", "--dir", t.TempDir())
	if r.code != exitOK {
		t.Fatalf("run: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if !hasContact(srv.App().Contacts(), "Dana O'Neil", "+1 555-0142") || srv.App().Screen() != adbtest.ScreenList {
		t.Errorf("contacts %+v, screen %q", srv.App().Contacts(), srv.App().Screen())
	}
}

// A settings page the phone does not have fails the run at the skill's
// step with am's answer; a browser task calling an android skill does
// not check.
func TestAndroidSkillFailures(t *testing.T) {
	srv, err := adbtest.NewServer(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	cog := writeWorkflow(t, "nope.cog", "task t \"T\" {\n  driver android\n  op1 = open_settings(\"NOPE_SETTINGS\")\n}\n")
	r := runWith(context.Background(), "", "run", cog, "--adb", srv.Addr(), "--yes", "--dir", t.TempDir())
	if r.code != exitStepFailed || !strings.Contains(r.stderr, "unable to resolve Intent") {
		t.Errorf("run: exit %d, want %d with am's error\n%s", r.code, exitStepFailed, r.stderr)
	}
	if s := srv.App().Screen(); s != adbtest.ScreenLauncher {
		t.Errorf("screen %q after the failed intent", s)
	}
	browser := filepath.Join(t.TempDir(), "b.cog")
	if err := os.WriteFile(browser, []byte("task t \"T\" {\n  driver browser\n  op1 = dial(\"1\")\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = runWith(context.Background(), "", "check", browser)
	if r.code == exitOK || !strings.Contains(r.stdout+r.stderr, "android") {
		t.Errorf("check of a browser task calling dial: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
