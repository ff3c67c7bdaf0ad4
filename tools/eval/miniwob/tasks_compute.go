package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/go-rod/rod/lib/input"
)

// Tasks where the person computes or searches: a value to find by
// trying, to compare, or to draw.

// digits are the shapes of the digits 0-9 on number-checkboxes' grid of
// 7 rows of 4 checkboxes, as the example on the page shows them.
var digits = [10]string{
	"0110100110011001100110010110", "0010011000100010001000100010", "0110100110010010010010001111",
	"0110100100010110000110010110", "1000101010101111001000100010", "1111100010001110000110010110",
	"0110100110001110100110010110", "1111100100010010001001000100", "0110100110010110100110010110",
	"0110100110010111000110010110",
}

func init() {
	register("guess-number", guessNumber)
	register("odd-or-even", oddOrEven)
	register("ascending-numbers", ascendingNumbers)
	register("find-greatest", findGreatest)
	register("number-checkboxes", numberCheckboxes)
	register("use-slider", useSlider)
	register("phone-book", phoneBook)
}

func guessNumber(h *person) error {
	lo, hi := 0, 9
	for tries := 0; tries < 6; tries++ {
		g := (lo + hi) / 2
		// A person clicks where the digits go, not on the spin
		// buttons at the field's right end.
		s, err := h.reveal(css("#tt"))
		if err != nil {
			return err
		}
		if err := seq(h.clickAt(s.X-s.W/2+8, s.Y, 1), func() error { return h.chord(input.ControlLeft, input.KeyA) },
			func() error { return h.typeText(strconv.Itoa(g)) }, func() error { return h.click(css("#subbtn")) }); err != nil {
			return err
		}
		h.wait(150 * time.Millisecond)
		switch {
		case h.count(css("#higher")) > 0:
			lo = g + 1
		case h.count(css("#lower")) > 0:
			hi = g - 1
		default:
			return nil // correct (the episode ended)
		}
	}
	return fmt.Errorf("the number was not found")
}

func oddOrEven(h *person) error {
	nums := strings.Split(h.read(`[...document.querySelectorAll('.display-number')].map(e => e.textContent.trim()).join('\n')`), "\n")
	for i, s := range nums {
		n, err := strconv.Atoi(s)
		if err != nil {
			return fmt.Errorf("reading the number %q: %w", s, err)
		}
		b := ".even"
		if n%2 != 0 {
			b = ".odd"
		}
		if err := h.click(css("#numbers " + b).nth(i)); err != nil {
			return err
		}
	}
	return h.click(css("#submit"))
}

func ascendingNumbers(h *person) error {
	// The numbers hide once 1 is clicked: remember where they are.
	var at [6]*spot
	for n := 1; n <= 5; n++ {
		s, err := h.find(withText("svg text", strconv.Itoa(n)))
		if err != nil {
			return err
		}
		at[n] = s
	}
	for n := 1; n <= 5; n++ {
		if err := h.clickAt(at[n].X, at[n].Y, 1); err != nil {
			return err
		}
	}
	return nil
}

func findGreatest(h *person) error {
	n := h.count(css("#cardholder .card"))
	best, bestV := -1, 0
	for i := 0; i < n; i++ {
		if err := h.click(css("#cardholder .card").nth(i)); err != nil {
			return err
		}
		v, err := strconv.Atoi(strings.TrimSpace(h.read(`document.querySelector('.card:not(.hidden) .card-value').textContent`)))
		if err != nil {
			return fmt.Errorf("reading a card: %w", err)
		}
		if best < 0 || v > bestV {
			best, bestV = i, v
		}
	}
	if best != n-1 {
		if err := h.click(css("#cardholder .card").nth(best)); err != nil {
			return err
		}
	}
	return h.click(css("#submit"))
}

func numberCheckboxes(h *person) error {
	d, err := strconv.Atoi(quoted(h.query()))
	if err != nil || d < 0 || d > 9 {
		return fmt.Errorf("reading the digit in %q", h.query())
	}
	for i, c := range digits[d] {
		if c == '1' {
			if err := h.click(css("#checkboxes input").nth(i)); err != nil {
				return err
			}
		}
	}
	return h.click(css("#subbtn"))
}

func useSlider(h *person) error {
	n, err := strconv.Atoi(between(h.query(), "Select ", " with the slider"))
	if err != nil {
		return fmt.Errorf("reading the value in %q: %w", h.query(), err)
	}
	return seq(slideTo(h, "#slider", "#val", n), func() error { return h.click(css("#subbtn")) })
}

func phoneBook(h *person) error {
	q := h.query()
	name := between(q, "Find ", " in the contact book")
	prop := "phone"
	for _, p := range []string{"email", "address"} {
		if strings.HasSuffix(q, "their "+p+".") {
			prop = p
		}
	}
	for page := 0; page < 6; page++ {
		if norm(h.read(`document.querySelector('#contact .name').textContent`)) == name {
			return h.click(css("#contact a." + prop))
		}
		if err := h.click(withText("#pagination a", ">")); err != nil {
			return err
		}
	}
	return fmt.Errorf("%s is not in the contact book", name)
}
