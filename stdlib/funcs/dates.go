package funcs

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// dateTokens are the layout tokens, longest first so that "MMMM" is not
// read as "MM" twice.
var dateTokens = []string{"YYYY", "YY", "MMMM", "MMM", "MM", "M", "Do", "DD", "D", "dddd", "ddd",
	"HH", "H", "hh", "h", "mm", "ss", "a"}

// weekdayNames are the English weekday names, Sunday first as Go's
// time.Weekday counts; ddd is their first three letters.
var weekdayNames = []string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}

// monthNames are the English month names; MMM is their first three letters.
var monthNames = []string{"January", "February", "March", "April", "May", "June", "July",
	"August", "September", "October", "November", "December"}

// layoutItem is one piece of a layout: a token, or literal text.
type layoutItem struct {
	token string // one of dateTokens, or "" for literal text
	lit   string
}

// numeric reports whether the token reads digits.
func (it layoutItem) numeric() bool {
	switch it.token {
	case "", "MMMM", "MMM", "dddd", "ddd", "a", "Do":
		return false // Do is a number, but its suffix ends it
	}
	return true
}

// parseLayout splits a layout into tokens and literal text. Text in single
// quotes is literal ("D MMM 'at' HH:mm"), so that letters of the tokens
// can still appear in a layout; ” is a quote.
func parseLayout(layout string) ([]layoutItem, error) {
	if strings.TrimSpace(layout) == "" {
		return nil, fmt.Errorf("the layout is empty")
	}
	var items []layoutItem
	addLit := func(s string) {
		if n := len(items); n > 0 && items[n-1].token == "" {
			items[n-1].lit += s
			return
		}
		items = append(items, layoutItem{lit: s})
	}
	for rest := layout; rest != ""; {
		if strings.HasPrefix(rest, "''") {
			addLit("'")
			rest = rest[2:]
			continue
		}
		if rest[0] == '\'' {
			lit, after, ok := quoted(rest[1:])
			if !ok {
				return nil, fmt.Errorf("layout %q has an unclosed quote", layout)
			}
			addLit(lit)
			rest = after
			continue
		}
		tok := ""
		for _, t := range dateTokens {
			if strings.HasPrefix(rest, t) {
				tok = t
				break
			}
		}
		if tok == "" {
			_, size := utf8.DecodeRuneInString(rest)
			addLit(rest[:size])
			rest = rest[size:]
			continue
		}
		items = append(items, layoutItem{token: tok})
		rest = rest[len(tok):]
	}
	for i, it := range items {
		// "MD" read from "112" could be 1/12 or 11/2, and "D0MM" writes
		// day 1 of February as "1002", which reads back as day 10
		// (FuzzReformatDate found it): refuse to guess.
		if it.numeric() && len(it.token) == 1 && i+1 < len(items) && startsWithDigit(items[i+1]) {
			next := items[i+1].token
			if next == "" {
				next = "a digit"
			}
			return nil, fmt.Errorf("layout %q: %s is directly followed by %s, so a 1- or 2-digit %s cannot be told apart; write %s%s",
				layout, it.token, next, it.token, it.token, it.token)
		}
	}
	return items, nil
}

// startsWithDigit reports whether an item begins with a digit: a numeric
// token, or literal text that starts with one.
func startsWithDigit(it layoutItem) bool {
	if it.token != "" {
		return it.numeric()
	}
	return it.lit != "" && it.lit[0] >= '0' && it.lit[0] <= '9'
}

// quoted reads quoted layout text up to its closing quote; ” inside
// stands for one quote.
func quoted(s string) (lit, rest string, ok bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\'' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 < len(s) && s[i+1] == '\'' {
			b.WriteByte('\'')
			i++
			continue
		}
		return b.String(), s[i+1:], true
	}
	return "", "", false
}

// dateParts is what was read: each field with whether it was present.
type dateParts struct {
	year, month, day, hour, minute, second int
	hour12                                 int  // hour as h/hh read it, 1..12
	pm                                     bool // after noon, when hasMeridiem
	hasYear, hasMonth, hasDay              bool
	hasHour, hasHour12, hasMeridiem        bool
	hasMinute, hasSecond                   bool
	weekday                                int // 0 is Sunday
	hasWeekday                             bool
}

// readDigits reads the digits a numeric token takes at the start of s:
// exactly two for YY, mm, ss and, when another number follows directly,
// for MM, DD, HH and hh; otherwise one or two (four for YYYY), since pages
// write "8:05" and "08:05" alike.
func readDigits(s string, it layoutItem, nextNumeric bool) (int, string, bool) {
	lo, hi := 1, 2
	switch it.token {
	case "YYYY":
		lo, hi = 4, 4
	case "YY", "mm", "ss":
		lo = 2
	case "MM", "DD", "HH", "hh":
		if nextNumeric {
			lo = 2
		}
	}
	n := 0
	for n < hi && n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	if n < lo {
		return 0, s, false
	}
	v, _ := strconv.Atoi(s[:n])
	return v, s[n:], true
}

// readName reads one of names (or its first three letters, short) at the
// start of s, ignoring case; the result counts from 0.
func readName(s string, names []string, short bool) (int, string, bool) {
	for i, name := range names {
		if short {
			name = name[:3]
		}
		if len(s) >= len(name) && strings.EqualFold(s[:len(name)], name) {
			rest := s[len(name):]
			if r, _ := utf8.DecodeRuneInString(rest); unicode.IsLetter(r) {
				continue // "Mayo" is not May
			}
			return i, rest, true
		}
	}
	return 0, s, false
}

// ordinalSuffix is the English suffix of a day of the month: 1st, 2nd,
// 3rd, 4th, 11th, 21st.
func ordinalSuffix(n int) string {
	switch {
	case n%100 >= 11 && n%100 <= 13:
		return "th"
	case n%10 == 1:
		return "st"
	case n%10 == 2:
		return "nd"
	case n%10 == 3:
		return "rd"
	}
	return "th"
}

// readWord reads a name (month, weekday), an AM/PM marker or a day with
// its ordinal suffix at the start of s, ignoring case.
func readWord(s string, it layoutItem) (int, string, bool) {
	switch it.token {
	case "MMMM", "MMM":
		i, rest, ok := readName(s, monthNames, it.token == "MMM")
		return i + 1, rest, ok
	case "dddd", "ddd":
		return readName(s, weekdayNames, it.token == "ddd")
	case "Do":
		v, rest, ok := readDigits(s, layoutItem{token: "D"}, false)
		suffix := ordinalSuffix(v)
		if !ok || len(rest) < 2 || !strings.EqualFold(rest[:2], suffix) {
			return 0, s, false // "4st" is no day
		}
		return v, rest[2:], true
	case "a":
		for _, m := range []struct {
			text string
			pm   int
		}{{"a.m.", 0}, {"p.m.", 1}, {"am", 0}, {"pm", 1}} {
			if len(s) >= len(m.text) && strings.EqualFold(s[:len(m.text)], m.text) {
				return m.pm, s[len(m.text):], true
			}
		}
	}
	return 0, s, false
}

// readLiteral matches literal layout text at the start of s; a space in
// the layout matches any run of white space.
func readLiteral(s, lit string) (string, bool) {
	for _, r := range lit {
		if unicode.IsSpace(r) {
			t := strings.TrimLeftFunc(s, unicode.IsSpace)
			if t == s {
				return s, false
			}
			s = t
			continue
		}
		c, size := utf8.DecodeRuneInString(s)
		if size == 0 || c != r {
			return s, false
		}
		s = s[size:]
	}
	return s, true
}

// tokenNames says in words what a token reads, for error messages.
var tokenNames = map[string]string{
	"YYYY": "a 4-digit year", "YY": "a 2-digit year", "MMMM": "a month name", "MMM": "a 3-letter month name",
	"MM": "a month number", "M": "a month number", "DD": "a day", "D": "a day",
	"Do": "a day with its suffix (4th)", "dddd": "a weekday name", "ddd": "a 3-letter weekday name", "HH": "an hour", "H": "an hour",
	"hh": "an hour", "h": "an hour", "mm": "2-digit minutes", "ss": "2-digit seconds", "a": "AM or PM",
}

// readDate reads text with a layout.
func readDate(text string, items []layoutItem) (dateParts, error) {
	var p dateParts
	s := strings.TrimSpace(text)
	for i, it := range items {
		if it.token == "" {
			rest, ok := readLiteral(s, it.lit)
			if !ok {
				return p, fmt.Errorf("expected %q at %s", it.lit, where(s))
			}
			s = rest
			continue
		}
		var v int
		var ok bool
		if it.numeric() {
			v, s, ok = readDigits(s, it, i+1 < len(items) && items[i+1].numeric())
		} else {
			v, s, ok = readWord(s, it)
		}
		if !ok {
			return p, fmt.Errorf("expected %s (%s) at %s", tokenNames[it.token], it.token, where(s))
		}
		if err := p.set(it.token, v); err != nil {
			return p, err
		}
	}
	if s != "" {
		return p, fmt.Errorf("unexpected %s after the end of the layout", quoteShort(s))
	}
	return p, p.validate()
}

// where names the place in the text where reading stopped.
func where(rest string) string {
	if rest == "" {
		return "the end of the text"
	}
	return quoteShort(rest)
}

// set stores one field, refusing a value outside its range and a second
// reading of a field that disagrees with the first (MMMM and MM).
func (p *dateParts) set(tok string, v int) error {
	field := func(name string, dst *int, has *bool, lo, hi int) error {
		if v < lo || v > hi {
			return fmt.Errorf("%s %d is not between %d and %d", name, v, lo, hi)
		}
		if *has && *dst != v {
			return fmt.Errorf("the text gives the %s twice, as %d and %d", name, *dst, v)
		}
		*dst, *has = v, true
		return nil
	}
	switch tok {
	case "YYYY":
		return field("year", &p.year, &p.hasYear, 0, 9999)
	case "YY":
		// The POSIX pivot (strptime %y): 69-99 are 1969-1999, 00-68 2000-2068.
		if v < 69 {
			v += 2000
		} else {
			v += 1900
		}
		return field("year", &p.year, &p.hasYear, 0, 9999)
	case "MMMM", "MMM", "MM", "M":
		return field("month", &p.month, &p.hasMonth, 1, 12)
	case "DD", "D", "Do":
		return field("day", &p.day, &p.hasDay, 1, 31)
	case "dddd", "ddd":
		return field("weekday", &p.weekday, &p.hasWeekday, 0, 6)
	case "HH", "H":
		return field("hour", &p.hour, &p.hasHour, 0, 23)
	case "hh", "h":
		return field("hour", &p.hour12, &p.hasHour12, 1, 12)
	case "mm":
		return field("minute", &p.minute, &p.hasMinute, 0, 59)
	case "ss":
		return field("second", &p.second, &p.hasSecond, 0, 59)
	case "a":
		pm := v == 1
		if p.hasMeridiem && p.pm != pm {
			return fmt.Errorf("the text says both AM and PM")
		}
		p.pm, p.hasMeridiem = pm, true
	}
	return nil
}

// validate checks what the fields say together: the day exists in its
// month, and a 24-hour hour agrees with an AM/PM beside it.
func (p *dateParts) validate() error {
	if p.hasDay && p.hasMonth {
		if max := daysIn(p.month, p.year, p.hasYear); p.day > max {
			return fmt.Errorf("%s has no day %d", monthNames[p.month-1], p.day)
		}
	}
	if w, ok := p.dayOfWeek(); ok && p.hasWeekday && w != p.weekday {
		return fmt.Errorf("%s %d, %d is a %s, not a %s", monthNames[p.month-1], p.day, p.year, weekdayNames[w], weekdayNames[p.weekday])
	}
	if p.hasHour12 && p.hasMeridiem {
		h := p.hour12 % 12
		if p.pm {
			h += 12
		}
		if p.hasHour && p.hour != h {
			return fmt.Errorf("the text gives the hour twice, as %d and %d", p.hour, h)
		}
		p.hour, p.hasHour = h, true
	}
	if p.hasHour && p.hasMeridiem && !p.hasHour12 && (p.hour >= 12) != p.pm {
		return fmt.Errorf("the hour %d does not agree with %s", p.hour, meridiem(p.pm))
	}
	if p.hasHour && p.hasHour12 && !p.hasMeridiem && p.hour%12 != p.hour12%12 {
		return fmt.Errorf("the text gives the hour twice, as %d and %d", p.hour, p.hour12)
	}
	return nil
}

// dayOfWeek computes the weekday of a full date.
func (p *dateParts) dayOfWeek() (int, bool) {
	if !p.hasYear || !p.hasMonth || !p.hasDay {
		return 0, false
	}
	return int(time.Date(p.year, time.Month(p.month), p.day, 12, 0, 0, 0, time.UTC).Weekday()), true
}

func meridiem(pm bool) string {
	if pm {
		return "PM"
	}
	return "AM"
}

// daysIn is the number of days of a month; without a year February may
// have 29.
func daysIn(month, year int, hasYear bool) int {
	switch month {
	case 2:
		if !hasYear || (year%4 == 0 && (year%100 != 0 || year%400 == 0)) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// writeDate renders the parts with a layout. A field the layout writes but
// the text did not give is an error, except seconds, which a time without
// them has as zero.
func writeDate(p dateParts, items []layoutItem) (string, error) {
	var b strings.Builder
	need := func(has bool, what string) error {
		if !has {
			return fmt.Errorf("the output layout writes %s, which the text does not give", what)
		}
		return nil
	}
	for _, it := range items {
		var err error
		switch it.token {
		case "":
			b.WriteString(it.lit)
		case "YYYY", "YY":
			if err = need(p.hasYear, "the year"); err == nil {
				if it.token == "YYYY" {
					fmt.Fprintf(&b, "%04d", p.year)
				} else {
					fmt.Fprintf(&b, "%02d", p.year%100)
				}
			}
		case "MMMM", "MMM", "MM", "M":
			if err = need(p.hasMonth, "the month"); err == nil {
				b.WriteString(monthText(it.token, p.month))
			}
		case "DD", "D":
			if err = need(p.hasDay, "the day"); err == nil {
				b.WriteString(pad(it.token, p.day))
			}
		case "Do":
			if err = need(p.hasDay, "the day"); err == nil {
				b.WriteString(strconv.Itoa(p.day) + ordinalSuffix(p.day))
			}
		case "dddd", "ddd":
			w, ok := p.dayOfWeek()
			if !ok {
				w, ok = p.weekday, p.hasWeekday
			}
			if err = need(ok, "the weekday (it needs the year, month and day)"); err == nil {
				name := weekdayNames[w]
				if it.token == "ddd" {
					name = name[:3]
				}
				b.WriteString(name)
			}
		case "HH", "H":
			what := "the hour"
			if p.hasHour12 {
				what = "the hour of the day, but the text has a 12-hour hour without AM or PM"
			}
			if err = need(p.hasHour, what); err == nil {
				b.WriteString(pad(it.token, p.hour))
			}
		case "hh", "h":
			h, ok := p.hour12, p.hasHour12
			if p.hasHour {
				h, ok = (p.hour+11)%12+1, true
			}
			if err = need(ok, "the hour"); err == nil {
				b.WriteString(pad(it.token, h))
			}
		case "mm":
			if err = need(p.hasMinute, "the minutes"); err == nil {
				fmt.Fprintf(&b, "%02d", p.minute)
			}
		case "ss":
			// A time written without seconds is on the minute.
			if err = need(p.hasSecond || p.hasMinute, "the seconds"); err == nil {
				fmt.Fprintf(&b, "%02d", p.second)
			}
		case "a":
			if err = need(p.hasHour, "AM or PM"); err == nil {
				b.WriteString(meridiem(p.hour >= 12))
			}
		}
		if err != nil {
			return "", err
		}
	}
	return b.String(), nil
}

func monthText(tok string, month int) string {
	switch tok {
	case "MMMM":
		return monthNames[month-1]
	case "MMM":
		return monthNames[month-1][:3]
	}
	return pad(tok, month)
}

// pad writes a number with two digits for a doubled token (MM, DD, HH,
// hh), as it is for a single one (M, D, H, h).
func pad(tok string, v int) string {
	if len(tok) == 2 {
		return fmt.Sprintf("%02d", v)
	}
	return strconv.Itoa(v)
}

// layoutType validates known layouts at check time, so that a bad literal
// layout is reported before the workflow runs.
func layoutType(args []cty.Value) (cty.Type, error) {
	for i := 1; i <= 2; i++ {
		if v := args[i]; v.IsKnown() {
			if _, err := parseLayout(v.AsString()); err != nil {
				return cty.NilType, function.NewArgError(i, err)
			}
		}
	}
	return cty.String, nil
}

// reformatDateFunc rewrites a date or time read from the screen into the
// form a field accepts: "8:22 AM" read with "h:mm a" and written with
// "HH:mm" is "08:22". It never fills in a part it did not read (a year, an
// AM/PM) and never wraps an impossible value ("13:05 PM", "February 30")
// into a possible one: either would type a wrong value that looks right.
var reformatDateFunc = build("reformat_date", function.Spec{
	Description: `Reads a date or time with the layout from and writes it with the layout to: ` +
		`reformat_date("8:22 AM", "h:mm a", "HH:mm") is "08:22". Tokens: YYYY YY MMMM MMM MM M DD D Do dddd ddd HH H hh h mm ss a; ` +
		`other characters are literal, text in single quotes too. Text that does not match, an impossible date or time, ` +
		`or a part the output needs and the text lacks is an error.`,
	Params: []function.Parameter{
		param("str", cty.String, "The date or time as the page writes it."),
		param("from", cty.String, `The layout of str, e.g. "MMMM D, YYYY".`),
		param("to", cty.String, `The layout to write, e.g. "MM/DD/YYYY".`),
	},
	Type: layoutType,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		text, from, to := args[0].AsString(), args[1].AsString(), args[2].AsString()
		in, err := parseLayout(from)
		if err != nil {
			return cty.NilVal, function.NewArgError(1, err)
		}
		out, err := parseLayout(to)
		if err != nil {
			return cty.NilVal, function.NewArgError(2, err)
		}
		p, err := readDate(text, in)
		if err != nil {
			return cty.NilVal, function.NewArgErrorf(0, "%s does not match the layout %q: %s", quoteShort(text), from, err)
		}
		s, err := writeDate(p, out)
		if err != nil {
			return cty.NilVal, function.NewArgErrorf(2, "%s read with %q: %s (layout %q)", quoteShort(text), from, err, to)
		}
		return cty.StringVal(s), nil
	},
})
