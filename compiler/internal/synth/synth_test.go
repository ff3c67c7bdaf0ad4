package synth

import (
	"strings"
	"testing"
)

// heldOut is an input the demonstration did not show, with the text the
// synthesized program must compute for it.
type heldOut struct {
	sources map[string]string
	want    string
}

type synthCase struct {
	name    string
	family  string // the family of the expected program
	sources []Source
	output  string
	expr    string // the expected program, printed; "" to check only its behaviour
	heldOut []heldOut
}

func src(pairs ...string) []Source {
	var out []Source
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, Source{Name: pairs[i], Value: pairs[i+1]})
	}
	return out
}

func vals(pairs ...string) map[string]string {
	m := map[string]string{}
	for i := 0; i+1 < len(pairs); i += 2 {
		m[pairs[i]] = pairs[i+1]
	}
	return m
}

// synthCases covers every family with a demonstration and held-out inputs.
var synthCases = []synthCase{
	{
		// The last occurrence counts too, and a word before the text's
		// closing punctuation is anchored there, not found as the first
		// word before a point.
		name: "regex last word of a paragraph", family: "regex",
		sources: src("op2", "Massa a sed. Pellentesque tortor nibh, nunc sem."), output: "sem",
		expr:    `regex("(\\pL+)\\.$", op2)`,
		heldOut: []heldOut{{vals("op2", "Risus turpis. Purus enim rhoncus."), "rhoncus"}, {vals("op2", "Egestas."), "Egestas"}},
	},
	{
		name: "identity", family: "identity",
		sources: src("keyword", "Kilimanjaro"), output: "Kilimanjaro",
		expr:    "keyword",
		heldOut: []heldOut{{vals("keyword", "Mount Kenya"), "Mount Kenya"}, {vals("keyword", "Meru"), "Meru"}},
	},
	{
		name: "identity picks the matching source", family: "identity",
		sources: src("op1", "http://127.0.0.1:8088/wiki", "keyword", "Kilimanjaro"), output: "Kilimanjaro",
		expr:    "keyword",
		heldOut: []heldOut{{vals("keyword", "Meru"), "Meru"}, {vals("keyword", "Ras Dashen"), "Ras Dashen"}},
	},
	{
		name: "upper case", family: "case",
		sources: src("keyword", "Kilimanjaro"), output: "KILIMANJARO",
		expr:    "upper(keyword)",
		heldOut: []heldOut{{vals("keyword", "Meru"), "MERU"}, {vals("keyword", "Mount Kenya"), "MOUNT KENYA"}},
	},
	{
		name: "title case", family: "case",
		sources: src("op2", "mount kenya"), output: "Mount Kenya",
		expr:    "title(op2)",
		heldOut: []heldOut{{vals("op2", "lake victoria"), "Lake Victoria"}, {vals("op2", "nile"), "Nile"}},
	},
	{
		name: "trim spaces", family: "trim",
		sources: src("op2", "  report  "), output: "report",
		expr:    "trimspace(op2)",
		heldOut: []heldOut{{vals("op2", "\tnotes \n"), "notes"}, {vals("op2", "plan"), "plan"}},
	},
	{
		name: "trim a label prefix", family: "trim",
		sources: src("op2", "Re: Meeting notes"), output: "Meeting notes",
		expr:    `trim_prefix(op2, "Re: ")`,
		heldOut: []heldOut{{vals("op2", "Re: Budget 2025"), "Budget 2025"}, {vals("op2", "Re: lunch?"), "lunch?"}},
	},
	{
		name: "suffix replacement", family: "replace",
		sources: src("op2", "budget.txt"), output: "budget.md",
		expr: `replace(op2, ".txt", ".md")`,
		heldOut: []heldOut{{vals("op2", "notes.txt"), "notes.md"}, {vals("op2", "q3 report.txt"), "q3 report.md"},
			{vals("op2", "2024-plan.txt"), "2024-plan.md"}},
	},
	{
		name: "prefix replacement", family: "replace",
		sources: src("op3", "Re: Lunch on Friday"), output: "Fwd: Lunch on Friday",
		expr:    `replace(op3, "Re:", "Fwd:")`,
		heldOut: []heldOut{{vals("op3", "Re: Budget"), "Fwd: Budget"}, {vals("op3", "Re: 3 questions"), "Fwd: 3 questions"}},
	},
	{
		name: "text inserted before the extension", family: "replace",
		sources: src("op2", "report.txt"), output: "report_final.txt",
		expr:    `replace(op2, ".txt", "_final.txt")`,
		heldOut: []heldOut{{vals("op2", "plan.txt"), "plan_final.txt"}, {vals("op2", "q3 budget.txt"), "q3 budget_final.txt"}},
	},
	{
		name: "concatenation with a constant", family: "concat",
		sources: src("op2", "Trip plan", "keyword", "Kilimanjaro"), output: "Trip plan - Kilimanjaro",
		expr: `op2 + " - " + keyword`,
		heldOut: []heldOut{{vals("op2", "Budget", "keyword", "Meru"), "Budget - Meru"},
			{vals("op2", "Notes 2025", "keyword", "Mount Kenya"), "Notes 2025 - Mount Kenya"}},
	},
	{
		name: "format of two sources", family: "concat",
		sources: src("keyword", "Kilimanjaro", "op3", "Tanzania"), output: "Kilimanjaro (Tanzania)",
		expr:    `format("%s (%s)", keyword, op3)`,
		heldOut: []heldOut{{vals("keyword", "Mount Kenya", "op3", "Kenya"), "Mount Kenya (Kenya)"}, {vals("keyword", "Fuji", "op3", "Japan"), "Fuji (Japan)"}},
	},
	{
		name: "format escapes a percent sign", family: "concat",
		sources: src("keyword", "Kilimanjaro", "op3", "Tanzania"), output: "Kilimanjaro 100% Tanzania done",
		expr: `format("%s 100%% %s done", keyword, op3)`,
		heldOut: []heldOut{{vals("keyword", "Meru", "op3", "Tanzania"), "Meru 100% Tanzania done"},
			{vals("keyword", "Fuji", "op3", "50%"), "Fuji 100% 50% done"}},
	},
	{
		name: "constant prefix", family: "concat",
		sources: src("keyword", "Kilimanjaro"), output: "Summary of Kilimanjaro",
		expr:    `"Summary of " + keyword`,
		heldOut: []heldOut{{vals("keyword", "Meru"), "Summary of Meru"}, {vals("keyword", "Mount Kenya"), "Summary of Mount Kenya"}},
	},
	{
		name: "substring of a fixed-width code", family: "substr",
		sources: src("op2", "INV2024000123"), output: "000123",
		expr:    "substr(op2, -6, -1)",
		heldOut: []heldOut{{vals("op2", "INV2023004567"), "004567"}, {vals("op2", "INV1999999999"), "999999"}},
	},
	{
		name: "first characters", family: "substr",
		sources: src("keyword", "Kilimanjaro"), output: "Kili",
		expr:    "substr(keyword, 0, 4)",
		heldOut: []heldOut{{vals("keyword", "Meru crater"), "Meru"}, {vals("keyword", "Kenya"), "Keny"}},
	},
	{
		name: "regex digits", family: "regex",
		sources: src("op2", "Order #4711 shipped"), output: "4711",
		expr:    `regex("[0-9]+", op2)`,
		heldOut: []heldOut{{vals("op2", "Order #98 delayed"), "98"}, {vals("op2", "Order #123456 shipped"), "123456"}},
	},
	{
		name: "regex e-mail", family: "regex",
		sources: src("op2", "Contact: Jane Doe <jane.doe@example.com>"), output: "jane.doe@example.com",
		expr: `regex("[\\w.+-]+@[\\w-]+(?:\\.[\\w-]+)+", op2)`,
		heldOut: []heldOut{{vals("op2", "Bob <bob@corp.org>"), "bob@corp.org"},
			{vals("op2", "write to x.y+z@mail.example.co.uk today"), "x.y+z@mail.example.co.uk"}},
	},
	{
		name: "regex URL", family: "regex",
		sources: src("op4", "See https://example.com/docs for details"), output: "https://example.com/docs",
		heldOut: []heldOut{{vals("op4", "Docs at http://x.org/a/b."), "http://x.org/a/b"},
			{vals("op4", "https://wiki.example.org/Kilimanjaro?x=1 is the page"), "https://wiki.example.org/Kilimanjaro?x=1"}},
	},
	{
		name: "regex text between brackets", family: "regex",
		sources: src("op2", "Kilimanjaro (Tanzania)"), output: "Tanzania",
		expr: `regex("\\(([^)]+)\\)", op2)`,
		heldOut: []heldOut{{vals("op2", "Mount Kenya (Kenya)"), "Kenya"},
			{vals("op2", "Ras Dashen (Ethiopia, Amhara)"), "Ethiopia, Amhara"}},
	},
	{
		name: "regex number with separators", family: "regex",
		sources: src("op5", "Total: 1,234.50 EUR"), output: "1,234.50",
		heldOut: []heldOut{{vals("op5", "Total: 99.90 EUR"), "99.90"}, {vals("op5", "Total: 12,000.00 EUR"), "12,000.00"}},
	},
	{
		name: "regex_replace keeps the digits", family: "regex_replace",
		sources: src("op2", "(555) 123-4567"), output: "5551234567",
		expr:    `regex_replace(op2, "[^0-9]", "")`,
		heldOut: []heldOut{{vals("op2", "+1 555-987-6543"), "15559876543"}, {vals("op2", "555.000.1111"), "5550001111"}},
	},
	{
		name: "regex_replace abbreviates the first name", family: "regex_replace",
		sources: src("op2", "John Smith"), output: "J. Smith",
		expr: `regex_replace(op2, "^(\\pL)\\pL*", "$1.")`,
		heldOut: []heldOut{{vals("op2", "Mary Jones"), "M. Jones"}, {vals("op2", "Ada Lovelace"), "A. Lovelace"},
			{vals("op2", "Mary Ann Jones"), "M. Ann Jones"}, {vals("op2", "Émile Zola"), "É. Zola"}},
	},
	{
		name: "regex_replace with letters beyond ASCII", family: "regex_replace",
		sources: src("op2", "Élodie Dupont"), output: "É. Dupont",
		expr:    `regex_replace(op2, "^(\\pL)\\pL*", "$1.")`,
		heldOut: []heldOut{{vals("op2", "Ørjan Berg"), "Ø. Berg"}, {vals("op2", "Zoë Ålund"), "Z. Ålund"}},
	},
	{
		name: "regex_replace reorders a date", family: "regex_replace",
		sources: src("op2", "2024-05-17"), output: "17.05.2024",
		expr:    `regex_replace(op2, "^([0-9]+)-([0-9]+)-([0-9]+)$", "$3.$2.$1")`,
		heldOut: []heldOut{{vals("op2", "1999-12-31"), "31.12.1999"}, {vals("op2", "2025-1-2"), "2.1.2025"}},
	},
	{
		name: "regex_replace swaps last and first name", family: "regex_replace",
		sources: src("op2", "Smith, John"), output: "John Smith",
		heldOut: []heldOut{{vals("op2", "Lovelace, Ada"), "Ada Lovelace"}, {vals("op2", "Núñez, José"), "José Núñez"}},
	},
	{
		name: "split and index", family: "split",
		sources: src("op2", "red,green,blue,black"), output: "blue",
		expr:    `split(",", op2)[2]`,
		heldOut: []heldOut{{vals("op2", "a,b,c,d"), "c"}, {vals("op2", "x,y y,z z z,w"), "z z z"}},
	},
	{
		name: "split with a spaced separator", family: "split",
		sources: src("op2", "tea; coffee; juice; water"), output: "juice",
		expr:    `split("; ", op2)[2]`,
		heldOut: []heldOut{{vals("op2", "a; b; c"), "c"}, {vals("op2", "green tea; black coffee; orange juice"), "orange juice"}},
	},
	{
		name: "number doubled", family: "arithmetic",
		sources: src("op3", "12.5"), output: "25",
		expr:    "parse_number(op3) * 2",
		heldOut: []heldOut{{vals("op3", "7"), "14"}, {vals("op3", "0.5"), "1"}},
	},
	{
		name: "sum of two numbers", family: "arithmetic",
		sources: src("op3", "19.99", "op4", "5.01"), output: "25",
		expr:    "parse_number(op3) + parse_number(op4)",
		heldOut: []heldOut{{vals("op3", "1", "op4", "2"), "3"}, {vals("op3", "1,000", "op4", "250.5"), "1250.5"}},
	},
	{
		name: "format_number with decimals", family: "arithmetic",
		sources: src("op3", "1234.5"), output: "1,234.50",
		expr:    "format_number(parse_number(op3), 2)",
		heldOut: []heldOut{{vals("op3", "99"), "99.00"}, {vals("op3", "1000000"), "1,000,000.00"}},
	},
	{
		name: "price times quantity in a sentence", family: "concat",
		sources: src("op2", "12.50", "op3", "3"), output: "Total: 37.50 EUR",
		expr:    `"Total: " + format_number(parse_number(op2) * parse_number(op3), 2) + " EUR"`,
		heldOut: []heldOut{{vals("op2", "2", "op3", "4"), "Total: 8.00 EUR"}, {vals("op2", "999.99", "op3", "2"), "Total: 1,999.98 EUR"}},
	},
	{
		name: "trim then lower case", family: "combination",
		sources: src("op2", "  Quarterly Report "), output: "quarterly report",
		expr:    "lower(trimspace(op2))",
		heldOut: []heldOut{{vals("op2", " NOTES"), "notes"}, {vals("op2", "Plan\t"), "plan"}},
	},
	{
		name: "extract then upper case", family: "combination",
		sources: src("op2", "John Smith"), output: "SMITH",
		expr: `upper(regex("\\pL+$", op2))`,
		heldOut: []heldOut{{vals("op2", "Ada Lovelace"), "LOVELACE"}, {vals("op2", "Mary Ann Jones"), "JONES"},
			{vals("op2", "José Núñez"), "NÚÑEZ"}},
	},
	{
		name: "first letters in upper case", family: "combination",
		sources: src("keyword", "Kilimanjaro"), output: "KIL",
		expr:    "upper(substr(keyword, 0, 3))",
		heldOut: []heldOut{{vals("keyword", "Meru"), "MER"}, {vals("keyword", "fuji"), "FUJ"}},
	},
}

func TestSynthesize(t *testing.T) {
	families := map[string]bool{}
	for _, c := range synthCases {
		t.Run(c.name, func(t *testing.T) {
			p, ok := Synthesize(c.output, c.sources, Options{})
			if !ok {
				t.Fatalf("no program for %q", c.output)
			}
			if p.Family != c.family {
				t.Errorf("family %s, want %s (program %s)", p.Family, c.family, p)
			}
			if c.expr != "" && p.String() != c.expr {
				t.Errorf("program %s, want %s", p, c.expr)
			}
			demo := map[string]string{}
			for _, s := range c.sources {
				demo[s.Name] = s.Value
			}
			if got, err := p.Eval(demo); err != nil || got != c.output {
				t.Errorf("on the demonstration %s gives %q, %v; want %q", p, got, err, c.output)
			}
			for _, h := range c.heldOut {
				if got, err := p.Eval(h.sources); err != nil || got != h.want {
					t.Errorf("held out %v: %s gives %q, %v; want %q", h.sources, p, got, err, h.want)
				}
			}
			families[p.Family] = true
		})
	}
	if len(families) < 8 {
		t.Errorf("the cases cover %d families, want at least 8", len(families))
	}
}

// TestNegative: an output the sources do not determine has no program.
func TestNegative(t *testing.T) {
	for _, c := range []struct {
		name    string
		sources []Source
		output  string
	}{
		{"unrelated sentence", src("keyword", "Kilimanjaro"), "Mount Kenya is the second highest"},
		{"unrelated number", src("op2", "42"), "17"},
		{"number from a word", src("keyword", "Kilimanjaro"), "5895"},
		{"unrelated text of a step", src("op2", "Order #4711 shipped", "keyword", "Meru"), "The weather is nice"},
		{"a short value inside a sentence", src("op2", "it"), "I like it very much"},
		{"no sources", nil, "hello"},
		{"only empty sources", src("op2", ""), "hello"},
		{"empty output", src("op2", "hello"), ""},
		// Another field's value with most of it cut away: a run with
		// "Ada Lovelace" would type "ada lovelace" (issue 13's form case).
		{"an e-mail from most of a name cut away", src("op2", "Grace Hopper"), "grace@example.com"},
		{"a word from most of a name cut away", src("op2", "Grace Hopper"), "grace likes tea"},
		// A summary keeps the paragraph's first words and its point: no
		// edit of the paragraph computes it in another run.
		{"a summary of a paragraph", src("op7", "Kilimanjaro is a dormant volcano in north-eastern Tanzania, close to the border with Kenya, and, at 5,895 metres above sea level, the highest mountain in Africa. It rises almost 4,900 metres above the plains."),
			"Kilimanjaro is a dormant volcano and the highest mountain in Africa."},
	} {
		t.Run(c.name, func(t *testing.T) {
			if p, ok := Synthesize(c.output, c.sources, Options{}); ok {
				t.Errorf("synthesized %s (%s) for an unrelated output", p, p.Family)
			}
		})
	}
}

// TestNoConstantPrograms: every candidate reads a source, and none is the
// output written as a literal.
func TestNoConstantPrograms(t *testing.T) {
	for _, c := range synthCases {
		for _, p := range allCandidates(c.output, c.sources, Options{}) {
			if len(p.Refs()) == 0 {
				t.Errorf("%s: candidate %s reads no source", c.name, p)
			}
			if strings.Contains(p.String(), `"`+c.output+`"`) {
				t.Errorf("%s: candidate %s spells out the output", c.name, p)
			}
		}
	}
}
