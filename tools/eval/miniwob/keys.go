package main

import (
	"github.com/go-rod/rod/lib/input"
	"github.com/go-rod/rod/lib/proto"
)

// Keys the scripts press.
var (
	keyDown  = input.ArrowDown
	keyUp    = input.ArrowUp
	keyEnter = input.Enter
	keyTab   = input.Tab
	keyBack  = input.Backspace
)

// ctrlClick clicks with Ctrl held (adds to a list's selection).
func ctrlClick(h *person, t target) error {
	s, err := h.reveal(t)
	if err != nil {
		return err
	}
	if err := h.p.Mouse.MoveTo(proto.Point{X: s.X, Y: s.Y}); err != nil {
		return err
	}
	if err := h.p.Keyboard.Press(input.ControlLeft); err != nil {
		return err
	}
	defer func() { _ = h.p.Keyboard.Release(input.ControlLeft) }()
	if err := h.p.Mouse.Click(proto.InputMouseButtonLeft, 1); err != nil {
		return err
	}
	h.sleep()
	return nil
}
