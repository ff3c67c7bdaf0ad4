package compiler

import (
	"strings"

	"github.com/cogflow/cogflow/compiler/trace"
)

// androidKeyNames turn the Android key names a recorder writes
// (KEYCODE_ without the prefix) into the language's key names; BACK
// becomes the back() action instead.
var androidKeyNames = map[string]string{
	"HOME": "Home", "APP_SWITCH": "AppSwitch", "MENU": "Menu", "SEARCH": "Search",
	"DEL": "Backspace", "FORWARD_DEL": "Delete", "ESCAPE": "Escape", "TAB": "Tab",
	"VOLUME_UP": "VolumeUp", "VOLUME_DOWN": "VolumeDown", "POWER": "Power",
}

// androidOps adapts the operations of an Android trace: the app the
// recording started in becomes a first launch step (API-first: an intent
// instead of taps through the launcher, and a run starts where the
// demonstration did), and Android key names become the language's.
func androidOps(tr *trace.Trace, ops []Op) []Op {
	if tr.Driver != trace.DriverAndroid {
		return ops
	}
	for i := range ops {
		op := &ops[i]
		if op.Action != "key" {
			continue
		}
		switch name := strings.ToUpper(op.Text); {
		case name == "BACK":
			op.Action, op.Text, op.Target, op.Snapshot = "back", "", nil, ""
		case androidKeyNames[name] != "":
			op.Text = androidKeyNames[name]
		}
	}
	if tr.Start.App == "" {
		return ops
	}
	launch := Op{Action: "launch", Text: tr.Start.App, Events: []string{"start"}}
	return append([]Op{launch}, ops...)
}
