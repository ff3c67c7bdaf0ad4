package model

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/llm"
	"github.com/cogflow/cogflow/runtime/redact"
)

// candidate is one element offered to the model, with the line that shows
// it (without its number, which is given in page order once the set is
// chosen).
type candidate struct {
	el   *driver.Element
	line string
	pos  int // position among the request's candidates
}

// scope chooses the candidates offered for an element or text choice: the
// visible ones that show something and hold no secret, ranked by relevance
// to the description and the inputs and by structure, cut to the token
// budget and the maximum count, and returned in page order. total is the
// number of eligible candidates before the cut.
func scope(d *dep, budget, max int, secrets *redact.Set) (kept []candidate, total int) {
	src := d.req.Candidates
	if len(src) == 0 && d.kind == kindSpan && d.req.Tree != nil {
		src = d.req.Tree.Elements // a text choice can fall on any text
	}
	var pool []candidate
	for i, el := range src {
		if el != nil && el.Visible && shows(el, d.kind) && !elementHoldsSecret(el, secrets) {
			pool = append(pool, candidate{el: el, pos: i})
		}
	}
	total = len(pool)
	order := rank(pool, d.req.Description, d.req.Inputs)
	prefix := llm.EstimateTokens(fmt.Sprintf("[%d] \n", len(pool))) // the number and the line break
	budget -= 20                                                    // the fence lines around the list
	used, misses := 0, 0
	for _, i := range order {
		if len(kept) == max || budget-used < 8 || misses > 64 {
			break
		}
		c := pool[i]
		c.line = renderCandidate(c.el, d.kind)
		if c.line == "" || holdsSecret(c.line, secrets) {
			continue
		}
		cost := llm.EstimateTokens(c.line) + prefix
		if used+cost > budget {
			misses++
			continue
		}
		used += cost
		kept = append(kept, c)
	}
	sort.Slice(kept, func(a, b int) bool { return kept[a].pos < kept[b].pos })
	return kept, total
}

// shows reports whether el can be a candidate at all: it must show a
// person something to choose it by (a name, text, label or placeholder; the
// value of a field). An element known only by its id or link target (an
// icon, an empty wrapper) is never offered: a choice of it could not be
// checked by anyone reading the run.
func shows(el *driver.Element, k kind) bool {
	nonBlank := func(ss ...string) bool {
		for _, s := range ss {
			if strings.TrimSpace(s) != "" {
				return true
			}
		}
		return false
	}
	return nonBlank(el.Name, el.Text, el.Label, el.Placeholder) ||
		((el.Editable || k == kindSpan) && nonBlank(el.Value))
}

// elementHoldsSecret reports whether any text of el holds a secret.
func elementHoldsSecret(el *driver.Element, secrets *redact.Set) bool {
	if secrets.Len() == 0 {
		return false
	}
	texts := []string{el.Name, el.Text, el.Label, el.Placeholder, el.Value, el.ID, el.Href, el.Description}
	if el.Cell != nil {
		texts = append(texts, el.Cell.ColumnHeader, el.Cell.RowHeader)
	}
	for _, t := range texts {
		if holdsSecret(t, secrets) {
			return true
		}
	}
	return false
}

// rank orders the pool, most relevant first (ties in page order). A
// candidate scores by the words it shares with the description and the
// inputs, rarer words weighing more (inputs twice the description, as they
// are what changes from run to run), plus structural hints: items of the
// list or table column whose items score best together, any list item, the
// item at a place the description names ("the 45th result", "the last
// row"), and roles that are usually chosen.
func rank(pool []candidate, description string, inputs []string) []int {
	query := map[string]float64{}
	eachWord(description, func(w string) { query[w] = math.Max(query[w], 1) })
	for _, in := range inputs {
		eachWord(in, func(w string) { query[w] = 2 })
	}
	bags := make([][]string, len(pool))
	df := map[string]int{}
	for i, c := range pool {
		for _, t := range searchTexts(c.el) {
			eachWord(t, func(w string) {
				if query[w] > 0 && !slices.Contains(bags[i], w) {
					bags[i] = append(bags[i], w)
					df[w]++
				}
			})
		}
	}
	n := float64(len(pool))
	score := make([]float64, len(pool))
	groupOf := make([]string, len(pool))
	groups := map[string]float64{}
	for i, c := range pool {
		for _, w := range bags[i] {
			score[i] += query[w] * math.Log(1+n/float64(df[w]))
		}
		if g := group(c.el); g != "" {
			groupOf[i] = g
			groups[g] += score[i]
			score[i] += 0.2
		}
		switch c.el.Role {
		case "link", "button", "listitem", "row", "option", "menuitem", "treeitem", "tab":
			score[i] += 0.1
		}
	}
	places := ordinals(description)
	for i, c := range pool {
		if atPlace(c.el, places) {
			score[i] += 1.5 // a choice by position has no word to match
		}
	}
	best, bestScore := "", 0.0
	for g, s := range groups {
		if s > bestScore || (s == bestScore && s > 0 && g < best) {
			best, bestScore = g, s
		}
	}
	order := make([]int, len(pool))
	for i := range pool {
		order[i] = i
		if best != "" && groupOf[i] == best {
			score[i]++
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return score[order[a]] > score[order[b]] })
	return order
}

// ordinalWords are the ordinals written as words; their place in the list
// is their number.
var ordinalWords = strings.Fields(`first second third fourth fifth sixth seventh eighth ninth tenth
	eleventh twelfth thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth`)

var ordinalRE = regexp.MustCompile(`(?i)\b(?:(\d{1,4})(?:st|nd|rd|th)|(second[ -]to[ -]last|penultimate|last)|(` +
	strings.Join(ordinalWords, "|") + `))\b`)

// ordinals lists the places a description names: 1 for "first" or "1st",
// -1 for "last", -2 for "second to last".
func ordinals(description string) []int {
	var out []int
	for _, m := range ordinalRE.FindAllStringSubmatch(description, -1) {
		switch {
		case m[1] != "":
			n, _ := strconv.Atoi(m[1])
			out = append(out, n)
		case m[3] != "":
			out = append(out, slices.Index(ordinalWords, strings.ToLower(m[3]))+1)
		case strings.EqualFold(m[2], "last"):
			out = append(out, -1)
		default:
			out = append(out, -2)
		}
	}
	return out
}

// atPlace reports whether el is, in its list or table, at one of places.
func atPlace(el *driver.Element, places []int) bool {
	for _, p := range places {
		switch {
		case el.List != nil && (el.List.Index == p-1 || (p < 0 && el.List.Index == el.List.Size+p)):
			return true
		case el.Cell != nil && p > 0 && el.Cell.Row == p-1:
			return true
		}
	}
	return false
}

// group names the list or table column an element is an item of, "" for
// none.
func group(el *driver.Element) string {
	switch {
	case el.List != nil:
		return "list " + el.List.Container
	case el.Cell != nil:
		return fmt.Sprintf("table %s column %d", el.Cell.Table, el.Cell.Column)
	}
	return ""
}

// searchTexts are what a candidate is matched on.
func searchTexts(el *driver.Element) []string {
	texts := []string{el.Name, el.Text, el.Label, el.Placeholder, el.Description}
	if el.Cell != nil {
		texts = append(texts, el.Cell.ColumnHeader, el.Cell.RowHeader)
	}
	return texts
}

// stopwords are left out of relevance matching.
var stopwords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`an as at be by in is it of on or to the and for that this with from into onto whose which what who
	most more less least than then its it's are was were been being has have had not but all any each
	one ones own same other such only very about after before over under between related relevant
	matches matching match best closest`) {
		stopwords[w] = true
	}
}

// eachWord calls fn with the lower-case words of s of two letters or more
// (digits of any length), without stopwords and with a plural "s" cut off.
func eachWord(s string, fn func(string)) {
	isWord := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	for len(s) > 0 {
		start := strings.IndexFunc(s, isWord)
		if start < 0 {
			return
		}
		s = s[start:]
		end := strings.IndexFunc(s, func(r rune) bool { return !isWord(r) })
		if end < 0 {
			end = len(s)
		}
		w := s[:end]
		s = s[end:]
		if hasUpper(w) {
			w = strings.ToLower(w)
		}
		if stopwords[w] || (utf8.RuneCountInString(w) < 2 && !unicode.IsDigit(rune(w[0]))) {
			continue
		}
		if len(w) > 4 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
			w = w[:len(w)-1]
		}
		fn(w)
	}
}

func hasUpper(s string) bool {
	for _, r := range s {
		if r >= utf8.RuneSelf || ('A' <= r && r <= 'Z') {
			return true
		}
	}
	return false
}

// renderCandidate shows an element on one line: role, then its texts
// quoted (so page text can neither break the line nor the fence) and cut
// short, then its place in a list or table. A text choice shows more of
// the text, since the answer is a span of it. "" when nothing is shown.
func renderCandidate(el *driver.Element, k kind) string {
	textMax := 160
	if k == kindSpan {
		textMax = 400
	}
	var b strings.Builder
	role := el.Role
	if role == "" {
		role = "element"
	}
	b.WriteString(role)
	n := b.Len()
	field := func(label, v string, max int) {
		v = collapse(v)
		if v == "" {
			return
		}
		if utf8.RuneCountInString(v) > max {
			v = string([]rune(v)[:max-1]) + "…"
		}
		if label != "" {
			b.WriteString(" " + label + "=")
		} else {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Quote(v))
	}
	field("", el.Name, 100)
	if collapse(el.Text) != collapse(el.Name) {
		field("text", el.Text, textMax)
	}
	field("label", el.Label, 60)
	field("placeholder", el.Placeholder, 60)
	if el.Editable || k == kindSpan {
		field("value", el.Value, 80)
	}
	if k == kindElement {
		field("id", el.ID, 40)
		field("href", el.Href, 80)
	}
	if b.Len() == n {
		return "" // nothing to tell it by
	}
	field("context", el.Description, 80)
	if el.List != nil {
		fmt.Fprintf(&b, " (item %d of %d in a list)", el.List.Index+1, el.List.Size)
	}
	if c := el.Cell; c != nil && c.Column >= 0 {
		fmt.Fprintf(&b, " (row %d, column %s)", c.Row+1, strconv.Quote(collapse(c.ColumnHeader)))
	} else if c != nil {
		fmt.Fprintf(&b, " (row %d)", c.Row+1)
	}
	return b.String()
}
