package browser

import (
	"context"
	"fmt"
	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/runtime/driver"
	"strings"
	"unicode/utf8"

	"github.com/go-rod/rod/lib/input"
)

// CDP modifier bits.
const (
	modAlt   = 1
	modCtrl  = 2
	modMeta  = 4
	modShift = 8
)

// keyDef describes a key for Input.dispatchKeyEvent.
type keyDef struct {
	key, code string
	keyCode   int
	text      string // what the key types, "" for none
	location  int
}

// modifierKeys are the CDP keys of the modifiers (lang/action knows the
// words that name them).
var modifierKeys = map[action.Modifier]struct {
	bit int
	def keyDef
}{
	action.Ctrl:  {modCtrl, keyDef{"Control", "ControlLeft", 17, "", 1}},
	action.Alt:   {modAlt, keyDef{"Alt", "AltLeft", 18, "", 1}},
	action.Shift: {modShift, keyDef{"Shift", "ShiftLeft", 16, "", 1}},
	action.Meta:  {modMeta, keyDef{"Meta", "MetaLeft", 91, "", 1}},
}

var namedKeys = map[string]keyDef{
	"enter":      {"Enter", "Enter", 13, "\r", 0},
	"return":     {"Enter", "Enter", 13, "\r", 0},
	"tab":        {"Tab", "Tab", 9, "", 0},
	"escape":     {"Escape", "Escape", 27, "", 0},
	"esc":        {"Escape", "Escape", 27, "", 0},
	"backspace":  {"Backspace", "Backspace", 8, "", 0},
	"delete":     {"Delete", "Delete", 46, "", 0},
	"insert":     {"Insert", "Insert", 45, "", 0},
	"space":      {" ", "Space", 32, " ", 0},
	"arrowup":    {"ArrowUp", "ArrowUp", 38, "", 0},
	"arrowdown":  {"ArrowDown", "ArrowDown", 40, "", 0},
	"arrowleft":  {"ArrowLeft", "ArrowLeft", 37, "", 0},
	"arrowright": {"ArrowRight", "ArrowRight", 39, "", 0},
	"up":         {"ArrowUp", "ArrowUp", 38, "", 0},
	"down":       {"ArrowDown", "ArrowDown", 40, "", 0},
	"left":       {"ArrowLeft", "ArrowLeft", 37, "", 0},
	"right":      {"ArrowRight", "ArrowRight", 39, "", 0},
	"home":       {"Home", "Home", 36, "", 0},
	"end":        {"End", "End", 35, "", 0},
	"pageup":     {"PageUp", "PageUp", 33, "", 0},
	"pagedown":   {"PageDown", "PageDown", 34, "", 0},
}

func init() {
	for i := 1; i <= 12; i++ {
		n := fmt.Sprintf("F%d", i)
		namedKeys[strings.ToLower(n)] = keyDef{n, n, 111 + i, "", 0}
	}
}

// chord is a parsed key combination.
type chord struct {
	mods []keyDef
	bits int
	key  keyDef
}

// parseChord reads "Ctrl+Shift+T", "Enter", "Ctrl++" or "a".
func parseChord(s string) (chord, error) {
	var c chord
	mods, last, err := driver.SplitChord(s)
	if err != nil {
		return c, fmt.Errorf("browser: %w", err)
	}
	for _, m := range mods {
		mk, ok := modifierKeys[action.ModifierOf(m)]
		if !ok {
			return c, fmt.Errorf("browser: unknown modifier %q in key %q", m, s)
		}
		if c.bits&mk.bit == 0 {
			c.bits |= mk.bit
			c.mods = append(c.mods, mk.def)
		}
	}
	k, err := keyOf(last, c.bits&modShift != 0)
	if err != nil {
		return c, fmt.Errorf("browser: %w in key %q", err, s)
	}
	c.key = k
	return c, nil
}

func keyOf(name string, shift bool) (keyDef, error) {
	if k, ok := namedKeys[strings.ToLower(name)]; ok {
		return k, nil
	}
	if utf8.RuneCountInString(name) != 1 {
		return keyDef{}, fmt.Errorf("unknown key %q", name)
	}
	r, _ := utf8.DecodeRuneInString(name)
	k := keyDef{key: name, text: name}
	if r < 128 {
		if info, ok := rodKey(r); ok {
			k.code, k.keyCode, k.location = info.Code, info.KeyCode, info.Location
		}
		if r >= 'a' && r <= 'z' && shift {
			k.key, k.text = strings.ToUpper(name), strings.ToUpper(name)
		}
	}
	return k, nil
}

// rodKey looks a character up in rod's US keyboard map.
func rodKey(r rune) (info input.KeyInfo, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	if r >= 'A' && r <= 'Z' {
		r = r - 'A' + 'a'
	}
	return input.Key(r).Info(), true
}

// press sends a chord: modifiers down, the key down and up, modifiers up.
// The key types its text only without Ctrl, Alt or Meta.
func (t *tab) press(ctx context.Context, c chord) error {
	bits := 0
	for _, m := range c.mods {
		if err := t.keyEvent(ctx, "rawKeyDown", m, bits, false); err != nil {
			return err
		}
		bits |= modBit(m)
	}
	typed := c.key.text != "" && bits&(modCtrl|modAlt|modMeta) == 0
	down := "rawKeyDown"
	if typed {
		down = "keyDown"
	}
	if err := t.keyEvent(ctx, down, c.key, bits, typed); err != nil {
		return err
	}
	if err := t.keyEvent(ctx, "keyUp", c.key, bits, false); err != nil {
		return err
	}
	for i := len(c.mods) - 1; i >= 0; i-- {
		bits &^= modBit(c.mods[i])
		if err := t.keyEvent(ctx, "keyUp", c.mods[i], bits, false); err != nil {
			return err
		}
	}
	return nil
}

func modBit(k keyDef) int {
	switch k.key {
	case "Control":
		return modCtrl
	case "Alt":
		return modAlt
	case "Shift":
		return modShift
	case "Meta":
		return modMeta
	}
	return 0
}

func (t *tab) keyEvent(ctx context.Context, typ string, k keyDef, mods int, typed bool) error {
	p := map[string]any{
		"type": typ, "key": k.key, "code": k.code, "modifiers": mods,
		"windowsVirtualKeyCode": k.keyCode, "nativeVirtualKeyCode": k.keyCode, "location": k.location,
	}
	if typed {
		p["text"] = k.text
		p["unmodifiedText"] = k.text
	}
	return t.call(ctx, "Input.dispatchKeyEvent", p, nil)
}
