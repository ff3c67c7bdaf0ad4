package adbtest

import "fmt"

// PlayTap is a finger tapping the primary device's screen at pixel (x, y):
// the touch appears on every open `getevent` stream (tracking id, position
// in raw units up to TouchMax, BTN_TOUCH DOWN, SYN_REPORT; then tracking id
// ffffffff, BTN_TOUCH UP, SYN_REPORT) and then the app reacts.
func (s *Server) PlayTap(x, y int) {
	ev := s.primary.events
	ev.publish(ev.touch([][2]int{{x, y}}))
	s.primary.app.Tap(x, y)
}

// PlayTextThenTap is PlayText followed by PlayTap so quickly that no
// dump sees the typed text: tests of what a recorder does when typing is
// lost need it, since two separate calls leave a loaded machine time to
// dump in between. The touch reaches getevent after the typing, with no
// dump possible until the tap has taken effect: a dump requested once the
// touch is read shows the new screen (one that saw the form without the
// text after the touch would be a phone whose person touched before
// typing), whatever the order in which a recorder reads and dumps.
func (s *Server) PlayTextThenTap(text string, x, y int) {
	ev := s.primary.events
	s.primary.app.typeTextAndTap(text, x, y, func() { ev.publish(ev.touch([][2]int{{x, y}})) })
}

// PlaySwipe is a finger dragged from (x1, y1) to (x2, y2) in six moves; on
// the contacts list it scrolls.
func (s *Server) PlaySwipe(x1, y1, x2, y2 int) {
	const moves = 6
	pts := [][2]int{{x1, y1}}
	for i := 1; i <= moves; i++ {
		pts = append(pts, [2]int{x1 + (x2-x1)*i/moves, y1 + (y2-y1)*i/moves})
	}
	ev := s.primary.events
	ev.publish(ev.touch(pts))
	s.primary.app.Swipe(x1, y1, x2, y2)
}

// PlayText is a person typing s on the soft keyboard into the focused
// field. A soft keyboard produces nothing useful on getevent (its taps are
// on the keyboard window), so nothing is emitted: a recorder sees the typed
// text as the field's new value in the next dump.
func (s *Server) PlayText(text string) {
	s.primary.app.TypeText(text)
}

// PlayKey is a person pressing a key, named as `input keyevent` takes it
// ("KEYCODE_BACK", "BACK", "4"). Keys with a hardware button (BACK,
// HOME as KEY_HOMEPAGE, APP_SWITCH, ENTER, DEL as KEY_BACKSPACE) appear on
// getevent from /dev/input/event1; then the app reacts.
func (s *Server) PlayKey(keycode string) error {
	code, ok := parseKeycode(keycode)
	if !ok {
		return fmt.Errorf("adbtest: unknown key code %q", keycode)
	}
	if k := linuxKey(code); k != "" {
		s.primary.events.publish(press(k))
	}
	s.primary.app.Key(code)
	return nil
}
