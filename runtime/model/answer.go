package model

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cogflow/cogflow/runtime/driver"
)

// kind is the shape of answer a dependency needs, which fixes the answer
// format asked for and the parser that accepts it.
type kind int

const (
	kindText    kind = iota // free text (recall, comprehension, creation, reasoning)
	kindNumber              // calculate: a number
	kindElement             // match_element: an index into the numbered candidates
	kindSpan                // match_text: a text that is on the screen
)

func (k kind) String() string {
	return [...]string{"text", "number", "element", "span"}[k]
}

// invalid says why an answer was rejected. Its message completes the
// sentence "the model answered X, but …".
type invalid struct {
	answer string // the raw answer, as the model wrote it
	reason string
}

func (e *invalid) Error() string {
	return fmt.Sprintf("the model answered %s, but %s", quoteShort(e.answer), e.reason)
}

// quoteShort renders an answer for a message: a bare number as is, anything
// else quoted and cut to 80 characters.
func quoteShort(s string) string {
	s = strings.TrimSpace(cutBytes(s, 400))
	if _, err := strconv.Atoi(s); err == nil {
		return s
	}
	if utf8.RuneCountInString(s) > 80 {
		s = string([]rune(s)[:79]) + "…"
	}
	return strconv.Quote(s)
}

// maxEcho bounds how much of an invalid answer a repair request repeats
// to the model: enough to see what went wrong, never a whole runaway
// answer sent back (a 50 MB answer once went back twice).
const maxEcho = 2000

// echo is an invalid answer as a repair request repeats it: cut to maxEcho
// bytes, with a marker saying so.
func echo(s string) string {
	if len(s) <= maxEcho {
		return s
	}
	return cutBytes(s, maxEcho) + fmt.Sprintf("… [cut by cogflow: the answer had %d bytes]", len(s))
}

// cutBytes cuts s to at most n bytes, at a character boundary.
func cutBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

var (
	thinkRE  = regexp.MustCompile(`(?is)<think(?:ing)?>.*?</think(?:ing)?>`)
	prefixRE = regexp.MustCompile(`(?i)^(?:\*\*|__)?\s*(?:final\s+)?answer\s*(?:\*\*|__)?\s*[:：]\s*(?:\*\*|__)?\s*`)
	fenceRE  = regexp.MustCompile("(?s)^```[A-Za-z0-9_+-]*[ \t]*\n?(.*?)\n?```$")
	quotes   = [][2]string{{`"`, `"`}, {`'`, `'`}, {"“", "”"}, {"‘", "’"}, {"«", "»"}, {"`", "`"}}
)

// cleanText strips what models wrap answers in: reasoning blocks, code
// fences, "Answer:" prefixes and one pair of surrounding quotes (only when
// the quote does not occur inside, so a text that merely starts and ends
// with quoted words is kept whole).
func cleanText(s string) string {
	s = strings.TrimSpace(thinkRE.ReplaceAllString(s, ""))
	for range 3 {
		before := s
		if m := fenceRE.FindStringSubmatch(s); m != nil {
			s = strings.TrimSpace(m[1])
		}
		if loc := prefixRE.FindStringIndex(s); loc != nil {
			s = strings.TrimSpace(s[loc[1]:])
			s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(s, "**"), "__"))
		}
		for _, q := range quotes {
			if len(s) >= len(q[0])+len(q[1]) && strings.HasPrefix(s, q[0]) && strings.HasSuffix(s, q[1]) {
				inner := s[len(q[0]) : len(s)-len(q[1])]
				if !strings.Contains(inner, q[0]) && !strings.Contains(inner, q[1]) {
					s = strings.TrimSpace(inner)
					break
				}
			}
		}
		if s == before {
			break
		}
	}
	return s
}

var (
	indexRE     = regexp.MustCompile(`^\[?#?\s*(\d{1,9})\s*\]?\.?$`)
	numberRE    = regexp.MustCompile(`^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$`)
	thousandsRE = regexp.MustCompile(`^[+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?$`)
	currencyRE  = regexp.MustCompile(`^(?:[A-Z]{3}\s+)?([+-]?)\s*[$€£¥₹]?\s*([+-]?[\d.,eE+-]+)\s*(?:[$€£¥₹%]|\s+[A-Z]{3})?$`)
)

// parseIndex accepts {"index": N} or a bare number (also "[N]", as the
// candidates are shown), nothing else.
func parseIndex(s string) (int, bool) {
	s = cleanText(s)
	if strings.HasPrefix(s, "{") {
		var obj map[string]json.RawMessage
		if json.Unmarshal([]byte(s), &obj) != nil {
			return 0, false
		}
		raw, ok := obj["index"]
		if !ok {
			return 0, false
		}
		var n int
		if json.Unmarshal(raw, &n) == nil {
			return n, true
		}
		var str string
		if json.Unmarshal(raw, &str) != nil {
			return 0, false
		}
		s = str
	}
	m := indexRE.FindStringSubmatch(s)
	if m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(m[1])
	return n, err == nil
}

// parseNumber accepts a number, with thousands separators ("1,234.5"), a
// currency symbol or code ("$12", "12 EUR") or a percent sign, or a JSON
// object holding one under "number", "value" or "answer". Words around the
// number make it invalid.
func parseNumber(s string) (float64, bool) {
	s = cleanText(s)
	if strings.HasPrefix(s, "{") {
		var obj map[string]json.RawMessage
		if json.Unmarshal([]byte(s), &obj) != nil {
			return 0, false
		}
		for _, k := range []string{"number", "value", "answer"} {
			if raw, ok := obj[k]; ok {
				var f float64
				if json.Unmarshal(raw, &f) == nil {
					return f, true
				}
				var str string
				if json.Unmarshal(raw, &str) == nil && !strings.HasPrefix(strings.TrimSpace(str), "{") {
					return parseNumber(str)
				}
				return 0, false
			}
		}
		return 0, false
	}
	m := currencyRE.FindStringSubmatch(s)
	if m == nil {
		return 0, false
	}
	sign, num := m[1], m[2]
	if sign != "" && strings.ContainsAny(num[:1], "+-") {
		return 0, false // two signs
	}
	if thousandsRE.MatchString(num) {
		num = strings.ReplaceAll(num, ",", "")
	}
	if !numberRE.MatchString(num) {
		return 0, false
	}
	f, err := strconv.ParseFloat(sign+num, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, false
	}
	return f, true
}

// collapse trims and collapses runs of whitespace to one space.
func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

// screenTexts lists the texts shown on the screen: the text, value and name
// of every element of the observation, and of the candidates when there is
// no observation.
func screenTexts(tree *driver.Tree, cands []*driver.Element) []string {
	els := cands
	if tree != nil {
		els = tree.Elements
	}
	out := make([]string, 0, 2*len(els))
	for _, el := range els {
		for _, t := range []string{el.Text, el.Value, el.Name} {
			if t != "" {
				out = append(out, t)
			}
		}
	}
	return out
}

// findSpan looks for ans on the screen, ignoring case and differences in
// whitespace, and returns it as the screen writes it.
func findSpan(screen []string, ans string) (string, bool) {
	want := strings.ToLower(collapse(ans))
	if want == "" {
		return "", false
	}
	for _, t := range screen {
		orig := collapse(t)
		low := strings.ToLower(orig)
		i := strings.Index(low, want)
		if i < 0 {
			continue
		}
		if len(low) == len(orig) {
			return orig[i : i+len(want)], true
		}
		return collapse(ans), true // case folding changed lengths: keep the model's spelling
	}
	return "", false
}
