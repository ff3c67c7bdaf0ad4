package funcs

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// The functions here cut a value out of text read from the screen: the
// n-th word or line of an instruction, the items of "A, B and C", an
// ordinal such as "third". Each one fails rather than give an empty or a
// guessed value, since what it returns is usually typed into a field.

var readingFuncs = map[string]function.Function{
	"words":         wordsFunc,
	"lines":         linesFunc,
	"split_list":    splitListFunc,
	"nonempty":      nonemptyFunc,
	"parse_ordinal": parseOrdinalFunc,
	"nth":           nthFunc,
	"reformat_date": reformatDateFunc,
}

// words splits text as a reader counts words: at white space, with the
// punctuation around each word left out ("Hello," is "Hello") and the
// punctuation inside kept ("don't", "e-mail", "3.5").
func words(s string) []string {
	var out []string
	for _, w := range strings.Fields(s) {
		if w = strings.TrimFunc(w, unicode.IsPunct); w != "" {
			out = append(out, w)
		}
	}
	return out
}

// lines splits text into its non-empty lines, trimmed.
func lines(s string) []string {
	var out []string
	for _, l := range strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' }) {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

func textList(vals []string) cty.Value {
	out := make([]cty.Value, len(vals))
	for i, v := range vals {
		out[i] = cty.StringVal(v)
	}
	return listOf(out, cty.String)
}

var wordsFunc = build("words", function.Spec{
	Description: `Returns the words of the text, split at white space, with punctuation at both ends of each word left out: ` +
		`words("Type \"Bob\", then Submit.") is ["Type", "Bob", "then", "Submit"].`,
	Params: []function.Parameter{strParam},
	Type:   function.StaticReturnType(cty.List(cty.String)),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return textList(words(args[0].AsString())), nil
	},
})

var linesFunc = build("lines", function.Spec{
	Description: "Returns the non-empty lines of the text, each trimmed of white space.",
	Params:      []function.Parameter{strParam},
	Type:        function.StaticReturnType(cty.List(cty.String)),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return textList(lines(args[0].AsString())), nil
	},
})

// listSeparator is what stands between the items of a written
// enumeration: a comma or semicolon (with an optional "and"/"or" after
// it, the serial comma), or "and", "or", "&" between spaces.
var listSeparator = regexp.MustCompile(`(?i)\s*[,;]\s*(?:(?:and|or)\s+)?|\s+(?:and|or|&)\s+`)

// quotePairs are the quotes an item may be wrapped in: "A", 'B', “C”.
var quotePairs = [][2]string{{`"`, `"`}, {"'", "'"}, {"“", "”"}, {"‘", "’"}, {"«", "»"}}

// emptyEnumerations are the words by which a text says, on purpose, that
// it names no item: "Select nothing and click Submit". They give an empty
// list, where text that merely holds no item is an error.
var emptyEnumerations = map[string]bool{"nothing": true, "none": true, "no items": true, "no item": true}

// splitList reads the items of a written enumeration; explicit is true
// when the text says in words that there are none.
func splitList(s string) (items []string, explicitNone bool) {
	if emptyEnumerations[strings.ToLower(strings.TrimRight(normalText(s), "."))] {
		return nil, true
	}
	var out []string
	for _, part := range listSeparator.Split(s, -1) {
		item := strings.Join(strings.Fields(part), " ")
		for _, q := range quotePairs {
			if len(item) > len(q[0])+len(q[1]) && strings.HasPrefix(item, q[0]) && strings.HasSuffix(item, q[1]) {
				item = strings.TrimSpace(item[len(q[0]) : len(item)-len(q[1])])
				break
			}
		}
		if item != "" {
			out = append(out, item)
		}
	}
	return out, false
}

var splitListFunc = build("split_list", function.Spec{
	Description: `Returns the items of a written enumeration: split_list("A, B and C"), split_list("A, B, or C") and ` +
		`split_list("A; B; C") are ["A", "B", "C"]. Quotes around an item are left out. "nothing" or "none" gives []; ` +
		`other text with no item (an empty text) is an error.`,
	Params: []function.Parameter{param("str", cty.String, "The enumeration, e.g. cut out of an instruction.")},
	Type:   function.StaticReturnType(cty.List(cty.String)),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		raw := args[0].AsString()
		items, none := splitList(raw)
		if len(items) == 0 && !none {
			return cty.NilVal, function.NewArgErrorf(0, "%s names no item", quoteShort(raw))
		}
		return textList(items), nil
	},
})

var nonemptyFunc = build("nonempty", function.Spec{
	Description: "Returns the text itself; an empty text, or one of white space only, is an error. " +
		"It guards a value read from the screen, so that a run never types nothing.",
	Params: []function.Parameter{strParam},
	Type:   function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		if strings.TrimSpace(args[0].AsString()) == "" {
			return cty.NilVal, function.NewArgErrorf(0, "read an empty text")
		}
		return args[0], nil
	},
})

// ordinalWords are the ordinals and cardinals a person writes in words, up
// to twenty; the tens above are in tensWords.
var ordinalWords = map[string]int{
	"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
	"ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13, "fourteenth": 14,
	"fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18, "nineteenth": 19, "twentieth": 20,
	"thirtieth": 30, "fortieth": 40, "fiftieth": 50, "sixtieth": 60, "seventieth": 70, "eightieth": 80, "ninetieth": 90,
}

var tensWords = map[string]int{"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
	"seventy": 70, "eighty": 80, "ninety": 90}

// ordinalNumeral is "3", "3rd", "21st", "3." (as some languages write it).
var ordinalNumeral = regexp.MustCompile(`^(\d{1,9})(?:st|nd|rd|th|\.)?$`)

// fromEnd are the phrases that count from the end: "last", "second to
// last", "2nd from the end", "last but one".
var fromEnd = regexp.MustCompile(`^(.+?)[\s-]+(?:to[\s-]+last|from[\s-]+(?:the[\s-]+)?(?:last|end|bottom)|last)$`)

// ordinal reads one ordinal counted from the start; ok is false when s is
// not one.
func ordinal(s string) (int, bool) {
	if m := ordinalNumeral.FindStringSubmatch(s); m != nil {
		n, err := strconv.Atoi(m[1])
		return n, err == nil && n > 0
	}
	if n, ok := ordinalWords[s]; ok {
		return n, true
	}
	// "twenty-first", "twenty first"
	if tens, unit, ok := strings.Cut(strings.ReplaceAll(s, " ", "-"), "-"); ok {
		if t, ok := tensWords[tens]; ok {
			if u, ok := ordinalWords[unit]; ok && u < 10 {
				return t + u, true
			}
		}
	}
	return 0, false
}

// parseOrdinal reads an ordinal: positive counts from the start, negative
// from the end (-1 is the last).
func parseOrdinal(raw string) (int, bool) {
	// Punctuation around the phrase is the sentence's, not the ordinal's:
	// "the 3rd," or “third”.
	// A sign or dash is not trimmed: "-1" is not an ordinal, not 1.
	s := strings.ToLower(normalText(strings.TrimFunc(raw, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune(".,;:!?\"'“”‘’«»()[]{}", r)
	})))
	s = strings.TrimPrefix(s, "the ")
	switch s {
	case "last", "final":
		return -1, true
	case "penultimate", "next to last", "next-to-last", "last but one":
		return -2, true
	case "antepenultimate", "last but two":
		return -3, true
	}
	if m := fromEnd.FindStringSubmatch(s); m != nil {
		if n, ok := ordinal(m[1]); ok {
			return -n, true
		}
		return 0, false
	}
	return ordinal(s)
}

var parseOrdinalFunc = build("parse_ordinal", function.Spec{
	Description: `Reads an ordinal as a position counted from 1: "3rd", "third" and "3" are 3; "last" is -1 and ` +
		`"second to last" -2, as nth counts. Other text is an error.`,
	Params: []function.Parameter{param("str", cty.String, `The ordinal, e.g. cut out of "Click the 3rd link".`)},
	Type:   function.StaticReturnType(cty.Number),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		raw := args[0].AsString()
		n, ok := parseOrdinal(raw)
		if !ok {
			return cty.NilVal, function.NewArgErrorf(0, "%s is not an ordinal (such as \"3rd\", \"third\", \"last\")", quoteShort(raw))
		}
		return cty.NumberIntVal(int64(n)), nil
	},
})

// nthFunc counts from 1 because the instructions it serves do ("the 3rd
// word"): the compiler passes parse_ordinal's answer straight through.
var nthFunc = build("nth", function.Spec{
	Description: "Returns the n-th item of the list, counting from 1; a negative n counts from the end (-1 is the last item). " +
		"n = 0 or beyond the list is an error.",
	Params: []function.Parameter{listParam, param("n", cty.Number, "The position: 1 is the first item, -1 the last.")},
	Type: func(args []cty.Value) (cty.Type, error) {
		return itemType(args[0]), nil
	},
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		i, err := wholeNumber(args[1], 1, "n")
		if err != nil {
			return cty.NilVal, err
		}
		size := args[0].LengthInt()
		switch {
		case i == 0:
			return cty.NilVal, function.NewArgErrorf(1, "n counts from 1 (or from -1 at the end), not 0")
		case i > size || -i > size:
			return cty.NilVal, function.NewArgErrorf(1, "there is no item %d in a list of %d %s", i, size, plural(size, "item"))
		case i < 0:
			i += size
		default:
			i--
		}
		return args[0].Index(cty.NumberIntVal(int64(i))), nil
	},
})

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return fmt.Sprint(word, "s")
}
