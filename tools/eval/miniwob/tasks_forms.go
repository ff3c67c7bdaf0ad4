package main

import (
	"fmt"
	"strings"
	"time"
)

// Forms: several fields named by labels, pickers, autocompletion,
// popups.

// movieFields are the fields of the movie search forms, by the words of
// their labels.
var movieFields = []struct{ label []string }{{[]string{"Genre"}}, {[]string{"Director"}}, {[]string{"Year", "Released"}}}

// movieSearch fills the movie search form of multi-layouts and
// multi-orderings, whatever the layout: each field is found by the label
// next to it.
func movieSearch(h *person) error {
	q := h.query()
	values := []string{between(q, "Search for ", " movies"), between(q, "directed by ", " from year"),
		strings.TrimSuffix(strings.TrimSpace(q[strings.LastIndex(q, " ")+1:]), ".")}
	labels := strings.Split(h.read(`[...document.querySelectorAll('#area input')].map(i => {
		const c = i.closest('p, .row, tr, .field, .ui-entry') || i.parentElement; return c.textContent.replace(/\s+/g, ' ').trim(); }).join('\n')`), "\n")
	for f, field := range movieFields {
		at := -1
		for i, l := range labels {
			for _, w := range field.label {
				if strings.Contains(l, w) {
					at = i
				}
			}
		}
		if at < 0 {
			return fmt.Errorf("no field labelled %v among %q", field.label, labels)
		}
		if err := h.fill(css("#area input").nth(at), values[f]); err != nil {
			return err
		}
	}
	for _, s := range []string{"Submit", "Search", "Go!"} {
		if h.count(withText("#area button, #area .final, #area .ui-submit", s)) > 0 {
			return h.click(withText("#area button, #area .final, #area .ui-submit", s))
		}
	}
	return fmt.Errorf("no submit button")
}

func init() {
	register("multi-layouts", movieSearch)
	register("multi-orderings", movieSearch)
	register("sign-agreement", signAgreement)
	register("use-autocomplete", useAutocomplete)
	register("login-user-popup", loginUserPopup)
	register("choose-date", chooseDate)
	register("book-flight", bookFlight)
}

var months = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}

// pickDate opens a jQuery UI date picker, goes to the month of date
// (MM/DD/YYYY) with its arrows and clicks the day.
func pickDate(h *person, input, date string) error {
	var m, d, y int
	if _, err := fmt.Sscanf(date, "%d/%d/%d", &m, &d, &y); err != nil {
		return fmt.Errorf("reading the date %q: %w", date, err)
	}
	if err := h.click(css(input)); err != nil {
		return err
	}
	for i := 0; i < 36; i++ {
		shown := norm(h.read(`document.querySelector('.ui-datepicker-title').textContent`))
		var sm string
		var sy int
		if _, err := fmt.Sscanf(shown, "%s %d", &sm, &sy); err != nil {
			return fmt.Errorf("reading the date picker's month %q: %w", shown, err)
		}
		at := sy*12 + indexOf(months, sm)
		want := y*12 + m - 1
		switch {
		case at == want:
			if err := h.click(withText(".ui-datepicker-calendar td a", fmt.Sprint(d))); err != nil {
				return err
			}
			// The picker fades out over what lies below it: a person
			// waits until it is gone.
			for j := 0; j < 30 && h.count(css("#ui-datepicker-div")) > 0; j++ {
				h.wait(100 * time.Millisecond)
			}
			return nil
		case at > want:
			if err := h.click(css(".ui-datepicker-prev")); err != nil {
				return err
			}
		default:
			if err := h.click(css(".ui-datepicker-next")); err != nil {
				return err
			}
		}
	}
	return fmt.Errorf("the date picker does not reach %s", date)
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// bookFlight fills the flight search (cities through their suggestions,
// the date through the picker), then books the cheapest or the shortest
// flight of the results.
func bookFlight(h *person) error {
	q := h.query()
	from, to := between(q, "from: ", " to:"), between(q, "to: ", " on ")
	date := strings.TrimSuffix(q[strings.LastIndex(q, " on ")+4:], ".")
	for _, f := range []struct{ sel, v string }{{"#flight-from", from}, {"#flight-to", to}} {
		if err := h.fill(css(f.sel), f.v); err != nil {
			return err
		}
		h.wait(600 * time.Millisecond)
		items := strings.Split(h.read(`[...document.querySelectorAll('.ui-autocomplete .ui-menu-item')].filter(e => e.getBoundingClientRect().height > 0).map(e => e.textContent.trim()).join('\n')`), "\n")
		at := -1
		for i, it := range items {
			if strings.HasPrefix(it, f.v+" (") || strings.Contains(it, "("+f.v+")") {
				at = i
				break
			}
		}
		if at < 0 {
			return fmt.Errorf("no suggestion for %q: %q", f.v, items)
		}
		if err := h.click(css(".ui-autocomplete .ui-menu-item").nth(at)); err != nil {
			return err
		}
	}
	if err := pickDate(h, "#datepicker", date); err != nil {
		return err
	}
	if err := h.click(css("#search")); err != nil {
		return err
	}
	h.wait(300 * time.Millisecond)
	cheapest := strings.Contains(q, "cheapest")
	rows := strings.Split(h.read(`[...document.querySelectorAll('#results .flight')].map(f =>
		f.querySelector('.flight-price').textContent.replace(/[^0-9]/g, '') + ' ' + f.querySelector('.time-duration').textContent).join('\n')`), "\n")
	best, bestV := -1, 0
	for i, r := range rows {
		var price, hh, mm int
		if _, err := fmt.Sscanf(r, "%d %dh %dm", &price, &hh, &mm); err != nil {
			return fmt.Errorf("reading the flight %q: %w", r, err)
		}
		v := hh*60 + mm
		if cheapest {
			v = price
		}
		if best < 0 || v < bestV {
			best, bestV = i, v
		}
	}
	if best < 0 {
		return fmt.Errorf("no flights")
	}
	return h.click(css("#results .flight .flight-price").nth(best))
}

func signAgreement(h *person) error {
	q := h.query()
	if q == "Click the cancel button." {
		return h.click(css("#cancel"))
	}
	// The fields unlock once the agreement is scrolled to its end.
	for i := 0; i < 10 && h.read(`document.getElementById('name').disabled`) == "true"; i++ {
		if err := h.wheel(css("#text-area"), 400); err != nil {
			return err
		}
	}
	if err := h.fill(css("#name"), quoted(q)); err != nil {
		return err
	}
	return h.click(withText("#area button", between(q, `then press "`, `"`)))
}

func useAutocomplete(h *person) error {
	q := h.query()
	start := quoted(q)
	end := between(q, `ends with "`, `"`)
	if err := h.fill(css("#tags"), start); err != nil {
		return err
	}
	h.wait(600 * time.Millisecond) // the suggestions appear
	items := strings.Split(h.read(`[...document.querySelectorAll('.ui-autocomplete .ui-menu-item')].map(e => e.textContent.trim()).join('\n')`), "\n")
	for i, it := range items {
		if strings.HasPrefix(it, start) && strings.HasSuffix(it, end) {
			return seq(h.click(css(".ui-autocomplete .ui-menu-item").nth(i)), func() error { return h.click(css("#subbtn")) })
		}
	}
	return fmt.Errorf("no suggestion starts with %q and ends with %q: %q", start, end, items)
}

func loginUserPopup(h *person) error {
	q := h.query()
	user, password := between(q, `username "`, `"`), between(q, `password "`, `"`)
	h.secret = password
	h.variant = "no popup"
	for _, f := range []struct{ sel, v string }{{"#username", user}, {"#password", password}} {
		if err := h.click(css(f.sel)); err != nil {
			return err
		}
		h.wait(200 * time.Millisecond)
		if h.count(css("#popup-cancel")) > 0 { // "Exit to home page?" — no
			h.variant = "popup at " + strings.TrimPrefix(f.sel, "#")
			if err := h.click(css("#popup-cancel")); err != nil {
				return err
			}
			if err := h.click(css(f.sel)); err != nil {
				return err
			}
		}
		if err := h.typeText(f.v); err != nil {
			return err
		}
	}
	return h.click(css("#subbtn"))
}

func chooseDate(h *person) error {
	d := between(h.query(), "Select ", " as the date")
	return seq(pickDate(h, "#datepicker", d), func() error { return h.click(css("#subbtn")) })
}
