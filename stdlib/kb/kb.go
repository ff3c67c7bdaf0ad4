// Package kb decodes, queries and writes cogflow's operation-cognition
// knowledge base: the five main categories of cognitive dependency (a closed
// set, after TaskMind), their open set of subcategories with definitions,
// result types and example descriptions, and the numbered rules that guide the
// extractor. The default knowledge base is embedded by package stdlib; Parse
// and Load read other copies, the editing methods (AddSubcategory,
// ModifySubcategory, AddRule, ModifyRule) change one under the same rules
// Parse enforces, and Format writes a knowledge base back in canonical HCL,
// keeping its header comment and the comments above its blocks.
package kb

import (
	"sort"
	"strings"

	"github.com/cogflow/cogflow/lang/suggest"
)

// Result types a cognitive dependency can return.
const (
	ResultText    = "text"
	ResultNumber  = "number"
	ResultElement = "element"
)

// mainCategories is the closed set of main categories, in canonical order.
var mainCategories = [...]string{
	"information_recall",
	"information_comprehension",
	"information_creation",
	"logical_reasoning",
	"contextual_selection",
}

// MainCategories returns the closed set of main category names in canonical
// order. The slice is a fresh copy.
func MainCategories() []string {
	return append([]string(nil), mainCategories[:]...)
}

// MainNames lists the closed set of main categories, for the checker.
func (k *KB) MainNames() []string { return MainCategories() }

// IsResultType reports whether s is one of ResultText, ResultNumber and
// ResultElement.
func IsResultType(s string) bool {
	return s == ResultText || s == ResultNumber || s == ResultElement
}

// KB is a decoded knowledge base.
type KB struct {
	// Header is the file's leading comment, one entry per line, without the
	// comment markers. Format re-emits it, as it does the comments directly
	// above a category, subcategory or rule block; other comments are not
	// kept.
	Header []string
	// Version is the schema version of the file; only 1 exists.
	Version int
	// Irreversible are the words (or phrases) of an element whose action
	// cannot be undone — it submits, sends, deletes or pays: exploration
	// never takes it without a confirmation (irreversible.go).
	Irreversible []string
	// Categories are the main categories in canonical order.
	Categories []*Category
	// Rules are the extractor rules, ordered by their numeric ID.
	Rules []*Rule
}

// Category is one of the five main categories.
type Category struct {
	// Name is one of MainCategories.
	Name string
	// Definition says in one sentence what the category covers.
	Definition string
	// Result is the default result type of the category's subcategories.
	Result string
	// Subcategories are the category's subcategories in file order.
	Subcategories []*Subcategory
	// Comment is the comment directly above the block, one entry per line
	// without the markers, kept so that a person's notes survive an edit.
	Comment []string
}

// Subcategory is an open-set subcategory of a main category, the name used in
// a dependency such as summarize<"...">(op5).
type Subcategory struct {
	// Name is unique across the whole knowledge base.
	Name string
	// Definition says in one sentence what the subcategory does.
	Definition string
	// Result is the resolved result type: the subcategory's own when the file
	// gives one, the category's otherwise. Format writes it only when it
	// differs from the category's; empty means "the category's".
	Result string
	// Examples are descriptions in dependency syntax, at least two.
	Examples []string
	// Comment is the comment directly above the block, as for Category;
	// cogflow reflect notes there where a learned entry came from.
	Comment []string
}

// Rule is one numbered extractor rule.
type Rule struct {
	// ID is the rule's stable number as a decimal string, e.g. "3".
	ID string
	// Text is the rule itself.
	Text string
	// Comment is the comment directly above the block, as for Category.
	Comment []string
}

// splitQualified splits "main.sub" into its parts; an unqualified name has
// an empty main.
func splitQualified(name string) (main, sub string) {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[:i], name[i+1:]
	}
	return "", name
}

// Main returns the main category called name, or nil.
func (k *KB) Main(name string) *Category {
	if k == nil {
		return nil
	}
	for _, c := range k.Categories {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// Lookup finds a subcategory by name. The name may be qualified with its main
// category ("contextual_selection.match_element"); a qualifier that is not the
// subcategory's own main category makes the lookup fail.
func (k *KB) Lookup(sub string) (*Category, *Subcategory, bool) {
	if k == nil {
		return nil, nil, false
	}
	main, name := splitQualified(sub)
	for _, c := range k.Categories {
		if main != "" && c.Name != main {
			continue
		}
		for _, s := range c.Subcategories {
			if s.Name == name {
				return c, s, true
			}
		}
	}
	return nil, nil, false
}

// MainOf returns the name of the main category of a subcategory (qualified
// names accepted, as in Lookup).
func (k *KB) MainOf(sub string) (string, bool) {
	c, _, ok := k.Lookup(sub)
	if !ok {
		return "", false
	}
	return c.Name, true
}

// ResultOf returns the result type of a dependency on subcategory sub. For a
// new subcategory qualified with a main category ("logical_reasoning.rank") it
// returns that category's default. It returns "" for an unknown unqualified
// name and for a known subcategory qualified with the wrong main category.
func (k *KB) ResultOf(sub string) string {
	if c, s, ok := k.Lookup(sub); ok {
		if s.Result != "" {
			return s.Result
		}
		return c.Result
	}
	main, name := splitQualified(sub)
	if _, _, known := k.Lookup(name); main == "" || known {
		return "" // unknown, or a known subcategory under the wrong main category
	}
	if c := k.Main(main); c != nil {
		return c.Result
	}
	return ""
}

// IsMain reports whether name is one of the main categories of k.
func (k *KB) IsMain(name string) bool {
	return k.Main(name) != nil
}

// SubcategoryNames returns the names of all subcategories, sorted.
func (k *KB) SubcategoryNames() []string {
	if k == nil {
		return nil
	}
	var names []string
	for _, c := range k.Categories {
		for _, s := range c.Subcategories {
			names = append(names, s.Name)
		}
	}
	sort.Strings(names)
	return names
}

// Closest returns up to n known subcategory names closest to name by edit
// distance, nearest first (ties alphabetical), for "did you mean" messages.
// A main-category qualifier on name is ignored, and names too far away to be a
// plausible typo are left out, so the result may be empty.
func (k *KB) Closest(name string, n int) []string {
	_, name = splitQualified(name)
	return suggest.Closest(name, k.SubcategoryNames(), n)
}
