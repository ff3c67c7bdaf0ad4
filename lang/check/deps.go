package check

import (
	"fmt"
	"strings"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/types"
)

// dependency checks a cognitive dependency: its categories against the
// knowledge base, its description, and that no secret reaches its inputs,
// which become part of a prompt.
func (c *checker) dependency(e *ast.Dependency) (types.Type, string) {
	result := c.dependencyType(e)
	c.info.DepTypes[e] = result
	if e.Description == nil || strings.TrimSpace(e.Description.Value) == "" {
		rng := e.Sub.Range
		if e.Description != nil {
			rng = e.Description.Range
		}
		c.diags.Errorf(rng, "the description of %s is empty; say what the value is, as in %s<\"the search result most related to the keyword\">", e.Sub.Name, e.Sub.Name)
	}
	for _, in := range e.Inputs {
		if in.Name != nil && in.Name.Name == "within" {
			c.within(e, in, result)
			continue
		}
		if in.Name != nil {
			c.diags.Errorf(in.Name.Range, "dependency inputs are positional; drop %s: (the one named input is within:, the element a choice is made inside)", in.Name.Name)
		}
		_, secret := c.expr(in.Value)
		if secret == "" {
			continue
		}
		d := c.diags.Errorf(in.Value.Rng(), "secret %s cannot flow into a cognitive dependency: its value would be sent to a language model", secret)
		if r, ok := in.Value.(*ast.Ref); !ok || !strings.HasSuffix(secret, " "+r.Name) {
			d.Notes = append(d.Notes, "this value is computed from "+secret)
		}
	}
	return result, ""
}

// within checks the scope of a choice: `match_element<"…">(op2, within:
// list(name: "Search results"))` chooses only among the elements inside
// the list, so a page cannot steer the choice anywhere else.
func (c *checker) within(e *ast.Dependency, in *ast.Arg, result types.Type) {
	t, _ := c.expr(in.Value)
	switch {
	case e.Sub.Name != "match_element" && e.Sub.Name != "match_text" && result.Kind != types.Element:
		c.diags.Errorf(in.Name.Range, "within: scopes a choice on the screen; %s chooses nothing", e.Sub.Name)
	case t.Kind != types.Element && t.Kind != types.Any:
		c.diags.Errorf(in.Value.Rng(), "within: must be an element, not %s", t)
	}
}

// dependencyType checks the categories and returns the result type they
// fix: match_element gives an element, match_text text, calculate a number.
func (c *checker) dependencyType(e *ast.Dependency) types.Type {
	kb := c.env.Knowledge
	if kb == nil {
		return types.AnyT
	}
	if e.Main != nil && !kb.IsMain(e.Main.Name) {
		d := c.diags.Errorf(e.Main.Range, "unknown main category %s", e.Main.Name)
		if main, ok := kb.MainOf(e.Sub.Name); ok {
			d.Message += fmt.Sprintf("; %s belongs to %s", e.Sub.Name, main)
		} else {
			hint(d, e.Main.Name, kb.MainNames())
		}
		d.Notes = append(d.Notes, "main categories: "+strings.Join(kb.MainNames(), ", "))
		return types.AnyT
	}
	main, known := kb.MainOf(e.Sub.Name)
	switch {
	case known && e.Main != nil && main != e.Main.Name:
		c.diags.Errorf(e.Main.Range, "subcategory %s belongs to %s, not %s", e.Sub.Name, main, e.Main.Name)
	case !known && e.Main != nil:
		c.diags.Warnf(e.Sub.Range, "%s is a new subcategory of %s; `cogflow reflect` can add it to the knowledge base", e.Sub.Name, e.Main.Name)
		return resultType(kb.ResultOf(e.Main.Name + "." + e.Sub.Name))
	case !known:
		d := c.diags.Warnf(e.Sub.Range, "unknown subcategory %s", e.Sub.Name)
		if near := kb.Closest(e.Sub.Name, 3); len(near) > 0 {
			d.Suggestion = "did you mean " + orList(near) + "?"
		}
		d.Notes = append(d.Notes, "write main."+e.Sub.Name+" to declare a new subcategory of a main category")
		return types.TextT
	}
	return resultType(kb.ResultOf(e.Sub.Name))
}

func resultType(name string) types.Type {
	switch name {
	case "element":
		return types.ElementT
	case "number":
		return types.NumberT
	}
	return types.TextT
}
