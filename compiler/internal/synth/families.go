package synth

// family is one kind of string program. A unary family looks at one input
// at a time; a multi family at all of them together.
type family struct {
	name    string
	minCost int // the fewest operations any of its programs has
	unary   func(*search, input)
	multi   func(*search, []input)
}

// families in order of simplicity; the order is part of the ranking.
var families []family

func init() {
	families = []family{
		{name: "identity", minCost: 0, unary: identityFamily},
		{name: "case", minCost: 1, unary: caseFamily},
		{name: "trim", minCost: 1, unary: trimFamily},
		{name: "replace", minCost: 1, unary: replaceFamily},
		{name: "concat", minCost: 1, multi: concatFamily},
		{name: "substr", minCost: 1, unary: substrFamily},
		{name: "regex", minCost: 1, unary: regexFamily},
		{name: "regex_replace", minCost: 1, unary: regexReplaceFamily},
		{name: "split", minCost: 2, unary: splitFamily},
		{name: "arithmetic", minCost: 1, multi: arithmeticFamily},
		{name: "combination", minCost: 2, multi: combineFamily},
	}
}

func familyIndex(name string) int {
	for i, f := range families {
		if f.name == name {
			return i
		}
	}
	panic("synth: unknown family " + name)
}
