package reflection

import (
	"fmt"
	"slices"

	"github.com/cogflow/cogflow/stdlib/kb"
)

// Apply applies updates to a copy of k and returns it; k itself is never
// changed. note, when not empty, becomes the comment above every entry
// added (and is appended to the comment of every entry modified), e.g.
// "Learned by cogflow reflect from keyword.cog on 2026-11-23.".
//
// The rules, beyond the knowledge base's own validation (kb.AddSubcategory
// and friends):
//   - The main categories stay closed: an update must name one of the five,
//     a subcategory may not take a main category's name, and a modified
//     subcategory may not move to another main category.
//   - A modified subcategory still covers what it covered: its result type
//     stays, and its old examples stay in the file after the new ones (the
//     new ones come first because the extractor shows the first two).
//   - An added subcategory must not exist yet, and comes with exactly two
//     examples that are dependencies on it.
//
// Either every update applies or none does: the first failure is returned
// as an error naming the update and its reply line.
func Apply(k *kb.KB, updates []Update, note string) (*kb.KB, error) {
	out := k.Clone()
	for i, u := range updates {
		if err := apply(out, u, note); err != nil {
			return nil, fmt.Errorf("update %d (reply line %d, %s) is refused: %w", i+1, u.Line, u.Op, err)
		}
	}
	if err := out.Validate(); err != nil {
		return nil, fmt.Errorf("the updated knowledge base would not be valid: %w", err)
	}
	return out, nil
}

// apply applies one update to k in place.
func apply(k *kb.KB, u Update, note string) error {
	switch u.Op {
	case None:
		return nil
	case AddSubcategory:
		if _, _, ok := k.Lookup(u.Sub); ok {
			main, _ := k.MainOf(u.Sub)
			return fmt.Errorf("the subcategory %s already exists in %s; use MODIFY_SUBCATEGORY %s.%s to change it", u.Sub, main, main, u.Sub)
		}
		if len(u.Examples) != 2 {
			return fmt.Errorf("a new subcategory needs exactly 2 examples, got %d", len(u.Examples))
		}
		s := &kb.Subcategory{Name: u.Sub, Definition: u.Definition, Examples: u.Examples}
		if note != "" {
			s.Comment = []string{note}
		}
		return k.AddSubcategory(u.Main, s)
	case ModifySubcategory:
		if !k.IsMain(u.Main) {
			return fmt.Errorf("%q is not a main category; the main categories are a closed set", u.Main)
		}
		_, old, ok := k.Lookup(u.Sub)
		if !ok {
			return fmt.Errorf("there is no subcategory %s to modify; use ADD_SUBCATEGORY to add it", u.Sub)
		}
		examples := slices.Clone(u.Examples)
		for _, ex := range old.Examples {
			if !slices.Contains(examples, ex) {
				examples = append(examples, ex) // what it covered stays covered
			}
		}
		s, err := k.ModifySubcategory(u.Main+"."+u.Sub, u.Definition, examples)
		if err != nil {
			return err
		}
		addNote(&s.Comment, note)
		return nil
	case AddRule:
		r, err := k.AddRule(u.Text)
		if err != nil {
			return err
		}
		addNote(&r.Comment, note)
		return nil
	case ModifyRule:
		r, err := k.ModifyRule(u.Rule, u.Text)
		if err != nil {
			return err
		}
		addNote(&r.Comment, note)
		return nil
	}
	return fmt.Errorf("unknown update %s", u.Op)
}

func addNote(comment *[]string, note string) {
	if note != "" && !slices.Contains(*comment, note) {
		*comment = append(*comment, note)
	}
}
