package funcs

import (
	"regexp"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

var (
	strParam    = param("str", cty.String, "The text to work on.")
	substrParam = param("substr", cty.String, "The text to look for.")
)

var stringFuncs = map[string]function.Function{
	"upper": reuse("upper", stdlib.UpperFunc,
		"Returns the text with every letter in upper case.",
		[]function.Parameter{strParam}, nil),
	"lower": reuse("lower", stdlib.LowerFunc,
		"Returns the text with every letter in lower case.",
		[]function.Parameter{strParam}, nil),
	"title": reuse("title", stdlib.TitleFunc,
		"Returns the text with the first letter of each word in upper case.",
		[]function.Parameter{strParam}, nil),
	"trim": reuse("trim", stdlib.TrimFunc,
		"Removes the given characters from both ends of the text.",
		[]function.Parameter{strParam, param("cutset", cty.String,
			"Every character to remove; order does not matter.")}, nil),
	"trimspace": reuse("trimspace", stdlib.TrimSpaceFunc,
		"Removes spaces, tabs and line breaks from both ends of the text.",
		[]function.Parameter{strParam}, nil),
	"trim_prefix": reuse("trim_prefix", stdlib.TrimPrefixFunc,
		"Removes the prefix from the start of the text if it is there.",
		[]function.Parameter{strParam, param("prefix", cty.String, "The text to remove.")}, nil),
	"trim_suffix": reuse("trim_suffix", stdlib.TrimSuffixFunc,
		"Removes the suffix from the end of the text if it is there.",
		[]function.Parameter{strParam, param("suffix", cty.String, "The text to remove.")}, nil),
	"replace": reuse("replace", stdlib.ReplaceFunc,
		"Replaces every occurrence of substr (plain text, not a pattern) with replacement.",
		[]function.Parameter{strParam, substrParam,
			param("replacement", cty.String, "The text to put in its place.")}, nil),
	"regex_replace": regexReplaceFunc,
	"regex":         regexFunc,
	"regex_all":     regexAllFunc,
	"format": reuse("format", stdlib.FormatFunc,
		`Builds text printf-style: format("%s has %d items", name, n). Verbs: %s %d %f %.2f %q %v %%.`,
		[]function.Parameter{param("format", cty.String, "The template with % verbs.")},
		&function.Parameter{Name: "args", Type: cty.DynamicPseudoType,
			Description: "One value per verb, in order."}),
	"join": reuse("join", stdlib.JoinFunc,
		`Joins the texts of one or more lists with a separator: join(", ", names).`,
		[]function.Parameter{param("separator", cty.String, "Put between consecutive items.")},
		&function.Parameter{Name: "lists", Type: cty.List(cty.String),
			Description: "Lists of text, joined in order."}),
	"split": reuse("split", stdlib.SplitFunc,
		`Splits text at every separator: split(",", "a,b") is ["a", "b"]. Empty parts are kept.`,
		[]function.Parameter{param("separator", cty.String, "The text between parts."), strParam}, nil),
	"substr": reuse("substr", stdlib.SubstrFunc,
		"Returns length characters of the text starting at offset (zero-based). "+
			"A negative offset counts from the end; length -1 means to the end.",
		[]function.Parameter{strParam,
			param("offset", cty.Number, "Where to start, in characters."),
			param("length", cty.Number, "How many characters, or -1 for the rest.")}, nil),
	"strlen": reuse("strlen", stdlib.StrlenFunc,
		"Returns the number of characters in the text.",
		[]function.Parameter{strParam}, nil),
	"reverse": reuse("reverse", stdlib.ReverseFunc,
		"Returns the text with its characters in reverse order (see reverse_list for lists).",
		[]function.Parameter{strParam}, nil),
	"contains":    textPredicate("contains", "Reports whether the text contains substr (see has for lists).", substrParam, strings.Contains),
	"starts_with": textPredicate("starts_with", "Reports whether the text starts with prefix.", param("prefix", cty.String, "The expected start."), strings.HasPrefix),
	"ends_with":   textPredicate("ends_with", "Reports whether the text ends with suffix.", param("suffix", cty.String, "The expected end."), strings.HasSuffix),
	"index_of":    indexOfFunc,
}

// textPredicate builds the small (str, other) → bool helpers that go-cty's
// stdlib lacks.
func textPredicate(name, desc string, other function.Parameter, test func(s, t string) bool) function.Function {
	return build(name, function.Spec{
		Description: desc,
		Params:      []function.Parameter{strParam, other},
		Type:        function.StaticReturnType(cty.Bool),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			return cty.BoolVal(test(args[0].AsString(), args[1].AsString())), nil
		},
	})
}

var indexOfFunc = build("index_of", function.Spec{
	Description: "Returns the zero-based character offset of the first occurrence of substr, or -1 when it does not occur.",
	Params:      []function.Parameter{strParam, substrParam},
	Type:        function.StaticReturnType(cty.Number),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		s := args[0].AsString()
		i := strings.Index(s, args[1].AsString())
		if i < 0 {
			return cty.NumberIntVal(-1), nil
		}
		// Count characters the way strlen and substr do, so that
		// substr(s, index_of(s, x), n) cuts where the author expects.
		return stdlib.Strlen(cty.StringVal(s[:i]))
	},
})

var patternParam = param("pattern", cty.String, "A regular expression (RE2 syntax).")

// compilePattern is shared by the type and implementation functions: the
// checker usually sees the pattern as a literal, so a bad one is reported
// before the workflow runs.
func compilePattern(v cty.Value, argIdx int) (*regexp.Regexp, error) {
	if !v.IsKnown() {
		return nil, nil
	}
	p := v.AsString()
	re, err := regexp.Compile(p)
	if err != nil {
		msg := strings.TrimPrefix(err.Error(), "error parsing regexp: ")
		return nil, function.NewArgErrorf(argIdx, "invalid pattern %q: %s", p, msg)
	}
	return re, nil
}

// patternType returns a type function that validates a known pattern.
func patternType(argIdx int, ret cty.Type) function.TypeFunc {
	return func(args []cty.Value) (cty.Type, error) {
		if _, err := compilePattern(args[argIdx], argIdx); err != nil {
			return cty.NilType, err
		}
		return ret, nil
	}
}

// firstGroup picks the text regex and regex_all return for one match: a
// workflow almost always wants a single piece of text ("the number in
// 'Total: 42'"), so a capture group selects it and no group means the
// whole match. Unlike go-cty's regex this never yields tuples or objects,
// which the language could not type.
func firstGroup(m []string) string {
	if len(m) > 1 {
		return m[1]
	}
	return m[0]
}

var regexFunc = build("regex", function.Spec{
	Description: `Returns the first match of the pattern in the text, or its first capture group when the pattern has one: ` +
		`regex("[0-9]+", "Total: 42") and regex("Total: ([0-9]+)", s) both give "42". It is an error when nothing matches.`,
	Params: []function.Parameter{patternParam, strParam},
	Type:   patternType(0, cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		re, err := compilePattern(args[0], 0)
		if err != nil {
			return cty.NilVal, err
		}
		// The subject is left out of the message on purpose: it may be a
		// secret, and errors end up in the run journal.
		m := re.FindStringSubmatch(args[1].AsString())
		if m == nil {
			return cty.NilVal, function.NewArgErrorf(1, "pattern %q does not match the text", re.String())
		}
		return cty.StringVal(firstGroup(m)), nil
	},
})

var regexAllFunc = build("regex_all", function.Spec{
	Description: "Returns every non-overlapping match of the pattern in the text (or the first capture group of each, as regex does). " +
		"No match gives an empty list.",
	Params: []function.Parameter{patternParam, strParam},
	Type:   patternType(0, cty.List(cty.String)),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		re, err := compilePattern(args[0], 0)
		if err != nil {
			return cty.NilVal, err
		}
		var out []cty.Value
		for _, m := range re.FindAllStringSubmatch(args[1].AsString(), -1) {
			out = append(out, cty.StringVal(firstGroup(m)))
		}
		if len(out) == 0 {
			return cty.ListValEmpty(cty.String), nil
		}
		return cty.ListVal(out), nil
	},
})

var regexReplaceFunc = build("regex_replace", function.Spec{
	Description: "Replaces every match of the pattern in the text with replacement, in which $1 or ${name} " +
		"insert capture groups.",
	Params: []function.Parameter{strParam, patternParam,
		param("replacement", cty.String, "The text to put in place of each match.")},
	Type: patternType(1, cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return stdlib.RegexReplaceFunc.Call(args)
	},
})
