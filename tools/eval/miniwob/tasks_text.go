package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/go-rod/rod/lib/input"
)

// Tasks whose value to type is in the instruction (sometimes
// transformed) or on the page.

// fillSubmit types a value read from the screen into a field and clicks
// Submit.
func fillSubmit(field, button string, value func(h *person) string) func(*person) error {
	return func(h *person) error {
		v := value(h)
		if v == "" {
			return fmt.Errorf("could not read the value to type from %q", h.query())
		}
		if err := h.fill(css(field), v); err != nil {
			return err
		}
		return h.click(css(button))
	}
}

func init() {
	register("enter-text-dynamic", fillSubmit("#tt", "#subbtn", func(h *person) string { return quoted(h.query()) }))
	register("read-table", fillSubmit("#tt", "#subbtn", func(h *person) string {
		key := between(h.query(), "Enter the value of ", " into the text field")
		for i := 0; i < 5; i++ {
			if norm(h.read(fmt.Sprintf(`document.querySelectorAll('#tab tr')[%d].cells[0].textContent`, i))) == key {
				return norm(h.read(fmt.Sprintf(`document.querySelectorAll('#tab tr')[%d].cells[1].textContent`, i)))
			}
		}
		return ""
	}))
	register("text-transform", fillSubmit("#tt", "#subbtn", func(h *person) string {
		return strings.ReplaceAll(h.read(`document.getElementById('captcha').textContent`), " ", "")
	}))
	register("scroll-text", scrollText)
	register("focus-text", clickSteps(fixed(css("#tt"))))
	register("focus-text-2", focusText2)
	register("unicode-test", clickSteps(func(q string) target { return withText("#area button", quoted(q)) }))
	register("copy-paste", copyPaste)
	register("enter-time", enterTime)
	register("form-sequence", formSequence)
	register("form-sequence-3", formSequence3)
}

// seq returns the first error: a person's next action runs only after
// the previous one worked.
func seq(err error, next ...func() error) error {
	if err != nil {
		return err
	}
	for _, f := range next {
		if err := f(); err != nil {
			return err
		}
	}
	return nil
}

// slideTo moves a jQuery UI slider to n with the keyboard: a click on its
// handle focuses it, then arrow keys step the value the page shows in
// the value element.
func slideTo(h *person, slider, value string, n int) error {
	if err := h.click(css(slider + " .ui-slider-handle")); err != nil {
		return err
	}
	for i := 0; i < 100; i++ {
		cur, err := strconv.Atoi(strings.TrimSpace(h.read(`document.querySelector('` + value + `').textContent`)))
		if err != nil {
			return fmt.Errorf("reading the slider's value: %w", err)
		}
		switch {
		case cur == n:
			return nil
		case cur < n:
			err = h.p.Keyboard.Type(input.ArrowRight)
		default:
			err = h.p.Keyboard.Type(input.ArrowLeft)
		}
		if err != nil {
			return err
		}
		h.wait(60 * time.Millisecond)
	}
	return fmt.Errorf("the slider does not reach %d", n)
}

func scrollText(h *person) error {
	// A person scrolls the text area to its end to read the last word.
	if err := h.wheel(css("#text-area"), 5000); err != nil {
		return err
	}
	words := strings.Fields(h.read(`document.getElementById('text-area').value`))
	if len(words) == 0 {
		return fmt.Errorf("the text area is empty")
	}
	last := strings.TrimRight(words[len(words)-1], ".")
	if err := h.fill(css("#answer-input"), last); err != nil {
		return err
	}
	return h.click(css("#subbtn"))
}

func focusText2(h *person) error {
	pos := map[string]int{"1st": 0, "2nd": 1, "3rd": 2}[between(h.query(), "Focus into the ", " input")]
	return h.click(css("#area input").nth(pos))
}

func copyPaste(h *person) error {
	if err := h.click(css("#to-copy")); err != nil {
		return err
	}
	if err := h.chord(input.ControlLeft, input.KeyA); err != nil {
		return err
	}
	if err := h.chord(input.ControlLeft, input.KeyC); err != nil {
		return err
	}
	if err := h.click(css("#answer-input")); err != nil {
		return err
	}
	if err := h.chord(input.ControlLeft, input.KeyV); err != nil {
		return err
	}
	return h.click(css("#subbtn"))
}

func enterTime(h *person) error {
	// "Enter 9:05 PM as the time": the time field takes the hour, the
	// minutes and AM/PM in turn.
	t := between(h.query(), "Enter ", " as the time")
	var hh, mm int
	var ampm string
	if _, err := fmt.Sscanf(strings.Replace(t, ":", " ", 1), "%d %d %s", &hh, &mm, &ampm); err != nil {
		return fmt.Errorf("reading the time %q: %w", t, err)
	}
	s, err := h.find(css("#tt"))
	if err != nil {
		return err
	}
	if err := h.clickAt(s.X-s.W/2+12, s.Y, 1); err != nil { // the hour
		return err
	}
	return seq(h.typeText(fmt.Sprintf("%02d%02d%s", hh, mm, ampm[:1])), func() error { return h.click(css("#subbtn")) })
}

func formSequence(h *person) error {
	q := h.query()
	n, err := strconv.Atoi(between(q, "Select ", " with the slider"))
	if err != nil {
		return fmt.Errorf("reading the slider value in %q: %w", q, err)
	}
	pos := map[string]int{"1st": 0, "2nd": 1, "3rd": 2}[between(q, "click the ", " checkbox")]
	if err := slideTo(h, "#slider", "#val", n); err != nil {
		return err
	}
	if err := h.click(css("#area input[type=checkbox]").nth(pos)); err != nil {
		return err
	}
	return h.click(css("#subbtn"))
}

func formSequence3(h *person) error {
	q := h.query()
	choice := between(q, "Choose ", " from the dropdown")
	if err := h.click(css(".selectric")); err != nil {
		return err
	}
	if err := h.click(withText(".selectric-items li", choice)); err != nil {
		return err
	}
	return h.click(withText("#buttons button", quoted(q)))
}
