package adbtest

import (
	"slices"
	"testing"
)

// TestImportFlow walks the import flow a person would, wrong branch
// included, and checks each screen and the contacts at the end.
func TestImportFlow(t *testing.T) {
	a := NewApp()
	a.Start()
	steps := []struct {
		tap, wantScreen, wantActivity string
		back                          bool
	}{
		{tap: "More options", wantScreen: ScreenMenu, wantActivity: ContactsPackage + "/.MainActivity"},
		{tap: "Settings", wantScreen: ScreenSettings, wantActivity: ContactsPackage + "/.SettingsActivity"},
		{tap: "Dark theme", wantScreen: ScreenSettings},
		// The menu closed when Settings was chosen: back shows the list.
		{back: true, wantScreen: ScreenList, wantActivity: ContactsPackage + "/.MainActivity"},
		{tap: "More options", wantScreen: ScreenMenu},
		{back: true, wantScreen: ScreenList},
		{tap: "More options", wantScreen: ScreenMenu},
		{tap: "Import/export", wantScreen: ScreenImport, wantActivity: ContactsPackage + "/.ImportExportActivity"},
		{tap: "Import from .vcf file", wantScreen: ScreenFiles, wantActivity: ContactsPackage + "/.FilePickerActivity"},
		{tap: "notes.txt", wantScreen: ScreenFiles},
		{tap: "contacts.vcf", wantScreen: ScreenList},
	}
	for i, s := range steps {
		if s.back {
			a.mu.Lock()
			a.back()
			a.mu.Unlock()
		} else {
			tap(t, a, s.tap)
		}
		if got := a.Screen(); got != s.wantScreen {
			t.Fatalf("step %d (%+v): screen %s, want %s", i, s, got, s.wantScreen)
		}
		if s.wantActivity != "" && a.Activity() != s.wantActivity {
			t.Errorf("step %d: activity %s, want %s", i, a.Activity(), s.wantActivity)
		}
		if s.tap == "notes.txt" {
			if _, ok := find(t, a, "notes.txt is not a contacts file"); !ok {
				t.Error("a file with no contacts does not say so")
			}
		}
		if s.tap == "More options" {
			if _, ok := find(t, a, "Search contacts"); ok {
				t.Error("the menu's dump shows the list under it; uiautomator dumps the focused popup only")
			}
		}
	}
	got := names(a)
	for _, want := range []string{"Dana Whitfield", "Evan Okafor", "Alice Johnson"} {
		if !slices.Contains(got, want) {
			t.Errorf("contacts %v lack %s", got, want)
		}
	}
	if _, ok := find(t, a, "Dana Whitfield"); !ok {
		t.Error("the list does not show an imported contact")
	}
}
