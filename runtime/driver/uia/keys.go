package uia

import (
	"fmt"
	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/runtime/driver"
	"strings"
	"unicode/utf8"
)

// Windows virtual-key codes the driver names (WinUser.h).
const (
	vkBack     = 0x08
	vkTab      = 0x09
	vkReturn   = 0x0D
	vkShift    = 0x10
	vkControl  = 0x11
	vkMenu     = 0x12 // Alt
	vkPause    = 0x13
	vkCapital  = 0x14
	vkEscape   = 0x1B
	vkSpace    = 0x20
	vkPrior    = 0x21 // Page Up
	vkNext     = 0x22 // Page Down
	vkEnd      = 0x23
	vkHome     = 0x24
	vkLeft     = 0x25
	vkUp       = 0x26
	vkRight    = 0x27
	vkDown     = 0x28
	vkSnapshot = 0x2C
	vkInsert   = 0x2D
	vkDelete   = 0x2E
	vkLWin     = 0x5B
	vkRWin     = 0x5C
	vkApps     = 0x5D
	vkF1       = 0x70
	vkLShift   = 0xA0
	vkRShift   = 0xA1
	vkLControl = 0xA2
	vkRControl = 0xA3
	vkLMenu    = 0xA4
	vkRMenu    = 0xA5
)

// Chord is a key combination as SendInput needs it: modifier keys held
// while a key is pressed, the key as a virtual-key code or, for a
// character no layout-independent code names, as a Unicode character.
type Chord struct {
	Mods []uint16 // virtual keys of the modifiers, in pressing order
	Key  uint16   // virtual key; 0 when Rune is used
	Rune rune     // a character sent as KEYEVENTF_UNICODE
	// Hold presses the modifiers only; Release releases them only. They
	// bracket pointer input that needs a modifier held (Ctrl+click).
	Hold, Release bool
}

// modifierVKs are the virtual keys of the modifiers (lang/action knows
// the words that name them).
var modifierVKs = map[action.Modifier]uint16{
	action.Ctrl: vkControl, action.Alt: vkMenu, action.Shift: vkShift, action.Meta: vkLWin,
}

// namedVKs are the keys with names, in the DOM's KeyboardEvent.key
// spelling (lower-cased) and a few usual aliases.
var namedVKs = map[string]uint16{
	"enter": vkReturn, "return": vkReturn, "tab": vkTab, "escape": vkEscape, "esc": vkEscape,
	"backspace": vkBack, "delete": vkDelete, "del": vkDelete, "insert": vkInsert, "space": vkSpace,
	"arrowup": vkUp, "arrowdown": vkDown, "arrowleft": vkLeft, "arrowright": vkRight,
	"up": vkUp, "down": vkDown, "left": vkLeft, "right": vkRight,
	"home": vkHome, "end": vkEnd, "pageup": vkPrior, "pagedown": vkNext,
	"contextmenu": vkApps, "printscreen": vkSnapshot, "pause": vkPause, "capslock": vkCapital,
}

// ParseChord reads a key chord of the language: "Ctrl+Shift+S", "Enter",
// "F5", "Alt+F4", "Ctrl++", "a", "é". Letters and digits become their
// virtual keys (so Ctrl+A is the shortcut on every layout); other single
// characters are sent as Unicode.
func ParseChord(s string) (Chord, error) {
	var c Chord
	mods, last, err := driver.SplitChord(s)
	if err != nil {
		return c, fmt.Errorf("uia: %w", err)
	}
	seen := map[uint16]bool{}
	for _, m := range mods {
		vk, ok := modifierVKs[action.ModifierOf(m)]
		if !ok {
			return c, fmt.Errorf("uia: unknown modifier %q in key %q", m, s)
		}
		if !seen[vk] {
			seen[vk] = true
			c.Mods = append(c.Mods, vk)
		}
	}
	if err := c.setKey(last); err != nil {
		return c, fmt.Errorf("uia: %w in key %q", err, s)
	}
	return c, nil
}

// setKey sets the chord's key from its name or character.
func (c *Chord) setKey(name string) error {
	low := strings.ToLower(name)
	if vk, ok := namedVKs[low]; ok {
		c.Key = vk
		return nil
	}
	var f int
	if n, _ := fmt.Sscanf(low, "f%d", &f); n == 1 && f >= 1 && f <= 24 && low == fmt.Sprintf("f%d", f) {
		c.Key = uint16(vkF1 + f - 1)
		return nil
	}
	if utf8.RuneCountInString(name) != 1 {
		return fmt.Errorf("unknown key %q", name)
	}
	r, _ := utf8.DecodeRuneInString(name)
	switch {
	case r >= 'a' && r <= 'z':
		c.Key = uint16(r - 'a' + 'A')
	case r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		c.Key = uint16(r)
	case r == ' ':
		c.Key = vkSpace
	default:
		c.Rune = r
	}
	return nil
}

// mustChord parses a chord the driver itself spells; a typo there is a
// programming error that tests catch.
func mustChord(s string) Chord {
	c, err := ParseChord(s)
	if err != nil {
		panic(err)
	}
	return c
}

// keyNames gives the DOM key name of a virtual key, for the recorder.
var keyNames = map[uint16]string{
	vkReturn: "Enter", vkTab: "Tab", vkEscape: "Escape", vkBack: "Backspace", vkDelete: "Delete",
	vkInsert: "Insert", vkSpace: " ", vkUp: "ArrowUp", vkDown: "ArrowDown", vkLeft: "ArrowLeft",
	vkRight: "ArrowRight", vkHome: "Home", vkEnd: "End", vkPrior: "PageUp", vkNext: "PageDown",
	vkApps: "ContextMenu", vkSnapshot: "PrintScreen", vkPause: "Pause", vkCapital: "CapsLock",
	vkShift: "Shift", vkLShift: "Shift", vkRShift: "Shift", vkControl: "Control", vkLControl: "Control",
	vkRControl: "Control", vkMenu: "Alt", vkLMenu: "Alt", vkRMenu: "Alt", vkLWin: "Meta", vkRWin: "Meta",
}

// KeyName is the DOM KeyboardEvent.key name of a virtual key ("Enter",
// "a", "F5"), as traces spell uia keys; shift gives upper-case letters.
// Keys without a name give "" — the recorder then keeps the typed text.
func KeyName(vk uint16, shift bool) string {
	if n, ok := keyNames[vk]; ok {
		return n
	}
	switch {
	case vk >= 'A' && vk <= 'Z':
		if shift {
			return string(rune(vk))
		}
		return string(rune(vk - 'A' + 'a'))
	case vk >= '0' && vk <= '9':
		return string(rune(vk))
	case vk >= vkF1 && vk < vkF1+24:
		return fmt.Sprintf("F%d", vk-vkF1+1)
	}
	return ""
}

// isModifier reports whether a virtual key is a modifier key.
func isModifier(vk uint16) bool {
	switch vk {
	case vkShift, vkLShift, vkRShift, vkControl, vkLControl, vkRControl, vkMenu, vkLMenu, vkRMenu, vkLWin, vkRWin:
		return true
	}
	return false
}
