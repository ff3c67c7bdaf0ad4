package compiler

import (
	"regexp"
	"strings"

	"github.com/cogflow/cogflow/lang/ast"
)

// Dates as pages write them: numbers with a separator (03/15/2024,
// 15.03.2024, 2024-03-15) or a month's name (March 15, 2024; 15 Mar 2024).
const (
	monthName     = `(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?`
	numericDate   = `[0-9]{1,4}[./-][0-9]{1,2}[./-][0-9]{1,4}`
	monthDayYear  = monthName + ` [0-9]{1,2},? [0-9]{4}`
	dayMonthYear  = `[0-9]{1,2} ` + monthName + `,? [0-9]{4}`
	datePatternRE = `\b(?:` + numericDate + `|` + monthDayYear + `|` + dayMonthYear + `)`
)

var (
	dateRE       = regexp.MustCompile(datePatternRE)
	numDateParts = regexp.MustCompile(`^([0-9]{1,4})([./-])([0-9]{1,2})([./-])([0-9]{1,4})$`)
	monthFirst   = regexp.MustCompile(`^(` + monthName + `) ([0-9]{1,2})(,?) ([0-9]{4})$`)
	dayFirst     = regexp.MustCompile(`^([0-9]{1,2}) (` + monthName + `)(,?) ([0-9]{4})$`)
)

// dateFamily: reformat_date(regex(date, text), from, to), a date the page
// writes one way typed the way the field takes it. The candidate layouts
// of the page's date and of the typed value are read from their shapes
// (both day/month orders for numbers); the library decides which pair
// turns the one into the other, trying month-first before day-first only
// where both fit.
func dateFamily(text, value string) ast.Expr {
	to := dateLayouts(strings.TrimSpace(value))
	if len(to) == 0 {
		return nil
	}
	for _, m := range dateRE.FindAllString(text, 4) {
		pat := numericDate
		switch {
		case monthFirst.MatchString(m):
			pat = monthDayYear
		case dayFirst.MatchString(m):
			pat = dayMonthYear
		}
		for _, from := range dateLayouts(m) {
			for _, t := range to {
				if from == t {
					continue
				}
				e := call("reformat_date", call("regex", str(pat), ref(screenRef)), str(from), str(t))
				if got, ok := evalScreen(e, text); ok && got == value {
					return e
				}
			}
		}
	}
	return nil
}

// dateLayouts returns the layouts a written date may have, month-first
// before day-first.
func dateLayouts(s string) []string {
	pad := func(n string, one, two string) string {
		if len(n) == 2 && n[0] == '0' {
			return two
		}
		if len(n) == 2 {
			return two + "|" + one // 15 reads as D or DD alike
		}
		return one
	}
	expand := func(parts ...string) []string {
		out := []string{""}
		for _, p := range parts {
			var next []string
			for _, o := range out {
				for _, alt := range strings.Split(p, "|") {
					next = append(next, o+alt)
				}
			}
			out = next
		}
		return out
	}
	year := func(n string) string {
		if len(n) == 4 {
			return "YYYY"
		}
		return "YY"
	}
	month := func(name string) string {
		if len(strings.TrimSuffix(name, ".")) == 3 {
			return "MMM" + strings.Repeat(".", strings.Count(name, "."))
		}
		return "MMMM"
	}
	if m := numDateParts.FindStringSubmatch(s); m != nil {
		a, s1, b, s2, c := m[1], m[2], m[3], m[4], m[5]
		if len(a) == 4 {
			return expand("YYYY", s1, pad(b, "M", "MM"), s2, pad(c, "D", "DD"))
		}
		out := expand(pad(a, "M", "MM"), s1, pad(b, "D", "DD"), s2, year(c))
		return append(out, expand(pad(a, "D", "DD"), s1, pad(b, "M", "MM"), s2, year(c))...)
	}
	if m := monthFirst.FindStringSubmatch(s); m != nil {
		return expand(month(m[1]), " ", pad(m[2], "D", "DD"), m[3]+" ", "YYYY")
	}
	if m := dayFirst.FindStringSubmatch(s); m != nil {
		return expand(pad(m[1], "D", "DD"), " ", month(m[2]), m[3]+" ", "YYYY")
	}
	return nil
}
