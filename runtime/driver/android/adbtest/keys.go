package adbtest

import (
	"strconv"
	"strings"
	"unicode"
)

// Android key codes the simulation understands (android.view.KeyEvent).
const (
	keyHome      = 3
	keyBack      = 4
	key0         = 7
	keyA         = 29
	keyComma     = 55
	keyPeriod    = 56
	keyTab       = 61
	keySpace     = 62
	keyEnter     = 66
	keyDel       = 67
	keyMinus     = 69
	keyAt        = 77
	keyPlus      = 81
	keyMenu      = 82
	keyEscape    = 111
	keyFwdDel    = 112
	keyCtrlLeft  = 113
	keyCtrlRight = 114
	keyMoveHome  = 122
	keyMoveEnd   = 123
	keyAppSwitch = 187
	keyShiftL    = 59
	keyShiftR    = 60
	keyAltL      = 57
	keyAltR      = 58
	keyMetaL     = 117
	keyMetaR     = 118
)

var keyNames = map[string]int{
	"HOME": keyHome, "BACK": keyBack, "COMMA": keyComma, "PERIOD": keyPeriod, "TAB": keyTab,
	"SPACE": keySpace, "ENTER": keyEnter, "DEL": keyDel, "MINUS": keyMinus, "AT": keyAt,
	"PLUS": keyPlus, "MENU": keyMenu, "ESCAPE": keyEscape, "FORWARD_DEL": keyFwdDel,
	"APP_SWITCH": keyAppSwitch, "CTRL_LEFT": keyCtrlLeft, "CTRL_RIGHT": keyCtrlRight,
	"MOVE_HOME": keyMoveHome, "MOVE_END": keyMoveEnd, "SHIFT_LEFT": keyShiftL, "SHIFT_RIGHT": keyShiftR,
	"ALT_LEFT": keyAltL, "ALT_RIGHT": keyAltR, "META_LEFT": keyMetaL, "META_RIGHT": keyMetaR,
	"DPAD_UP": 19, "DPAD_DOWN": 20, "DPAD_LEFT": 21, "DPAD_RIGHT": 22, "DPAD_CENTER": 23,
}

// parseKeycode reads a key as `input keyevent` does: "KEYCODE_BACK", "BACK"
// or a number. ok is false for names Android does not know.
func parseKeycode(s string) (code int, ok bool) {
	if n, err := strconv.Atoi(s); err == nil {
		return n, n >= 0
	}
	name := strings.TrimPrefix(strings.ToUpper(s), "KEYCODE_")
	if len(name) == 1 && name[0] >= 'A' && name[0] <= 'Z' {
		return keyA + int(name[0]-'A'), true
	}
	if len(name) == 1 && name[0] >= '0' && name[0] <= '9' {
		return key0 + int(name[0]-'0'), true
	}
	code, ok = keyNames[name]
	return code, ok
}

// keyChar is the character a key types into a text field, 0 for none.
func keyChar(code int) rune {
	switch {
	case code >= keyA && code < keyA+26:
		return rune('a' + code - keyA)
	case code >= key0 && code < key0+10:
		return rune('0' + code - key0)
	}
	return map[int]rune{keyComma: ',', keyPeriod: '.', keySpace: ' ', keyMinus: '-', keyAt: '@', keyPlus: '+'}[code]
}

// linuxKey names the evdev key that a hardware button for code reports on
// getevent; "" for keys that only a soft keyboard sends.
func linuxKey(code int) string {
	switch code {
	case keyHome:
		return "KEY_HOMEPAGE"
	case keyBack:
		return "KEY_BACK"
	case keyAppSwitch:
		return "KEY_APPSELECT"
	case keyEnter:
		return "KEY_ENTER"
	case keyDel:
		return "KEY_BACKSPACE"
	}
	return ""
}

// Key applies an Android key code to the app, as the system delivers it.
// The cursor is always at the end of a field, so MOVE_END and the D-pad
// change nothing.
func (a *App) Key(code int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.key(code, false)
}

func (a *App) key(code int, shift bool) {
	switch code {
	case keyHome:
		a.home()
	case keyBack, keyEscape:
		a.back()
	case keyEnter, keyTab:
		a.enter()
	case keyDel:
		a.deleteChar()
	default:
		if r := keyChar(code); r != 0 {
			if shift {
				r = unicode.ToUpper(r)
			}
			a.typeText(string(r))
		}
	}
}

// KeyCombination applies a chord, as `input keycombination` (Android 13)
// does: SHIFT capitalizes, CTRL+A selects the focused field's text so the
// next DEL or typed text replaces it; other modifiers are ignored.
func (a *App) KeyCombination(codes []int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	var shift, ctrl bool
	for _, c := range codes {
		switch c {
		case keyShiftL, keyShiftR:
			shift = true
		case keyCtrlLeft, keyCtrlRight:
			ctrl = true
		case keyAltL, keyAltR, keyMetaL, keyMetaR:
		default:
			if ctrl && c == keyA {
				if f := a.top(); f != nil && f.focus != "" {
					f.selected = true
				}
				continue
			}
			a.key(c, shift)
		}
	}
}
