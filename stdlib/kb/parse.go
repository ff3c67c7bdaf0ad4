package kb

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/cogflow/cogflow/internal/hcldiag"
	"github.com/cogflow/cogflow/internal/hclguard"
	"github.com/cogflow/cogflow/lang/diag"
	"github.com/cogflow/cogflow/lang/suggest"
	"github.com/cogflow/cogflow/stdlib"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// SupportedVersion is the only knowledge base schema version this package reads.
const SupportedVersion = 1

var (
	rootSchema = &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "version", Required: true}, {Name: "irreversible"}},
		Blocks: []hcl.BlockHeaderSchema{
			{Type: "category", LabelNames: []string{"name"}},
			{Type: "rule", LabelNames: []string{"id"}},
		},
	}
	categorySchema = &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{
			{Name: "definition", Required: true},
			{Name: "result", Required: true},
		},
		Blocks: []hcl.BlockHeaderSchema{{Type: "subcategory", LabelNames: []string{"name"}}},
	}
	subcategorySchema = &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{
			{Name: "definition", Required: true},
			{Name: "result"},
			{Name: "examples", Required: true},
		},
	}
	ruleSchema = &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "text", Required: true}},
	}

	identRE  = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	ruleIDRE = regexp.MustCompile(`^[1-9][0-9]{0,8}$`)
	// exampleRE matches a dependency [main.]sub<"description">(args).
	exampleRE = regexp.MustCompile(`^(?:([A-Za-z_][A-Za-z0-9_]*)\.)?([A-Za-z_][A-Za-z0-9_]*)<"(?:[^"\\]|\\.)+">\(.*\)$`)
)

// Default returns the knowledge base shipped in stdlib/knowledge.hcl, freshly
// parsed, so the caller may modify it. It panics if the shipped file does not
// parse, which a test rules out.
func Default() *KB {
	k, diags := Parse(stdlib.KnowledgeHCL, stdlib.KnowledgeFilename)
	if diags.HasErrors() {
		panic("kb: the embedded default knowledge base is broken: " + diags.Err().Error())
	}
	return k
}

// MaxFileSize bounds a knowledge base file: the default one has about
// 11 KB, and reflect adds a few hundred bytes a rule.
const MaxFileSize = 1 << 20

// ReadFile reads a knowledge base file, refusing one of more than
// MaxFileSize bytes. Its errors wrap the fs errors (fs.ErrNotExist).
func ReadFile(path string) ([]byte, error) {
	return hclguard.ReadFile(path, "knowledge base", MaxFileSize)
}

// Load reads and parses the knowledge base file at path.
func Load(path string) (*KB, diag.List) {
	src, err := ReadFile(path)
	if err != nil {
		return nil, hcldiag.Convert(hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Cannot read knowledge base",
			Detail:   err.Error(),
		}}, nil, path)
	}
	return Parse(src, path)
}

// Parse decodes a knowledge base from HCL source; filename names it in
// diagnostics. Every problem is reported with its source range, as a
// lang/diag diagnostic (HCL's are converted here, at the package's
// boundary). The returned KB is nil when the diagnostics contain an error;
// warnings (such as an example that does not name its own subcategory)
// leave it usable.
func Parse(src []byte, filename string) (*KB, diag.List) {
	k, diags := parseHCL(src, filename)
	return k, hcldiag.Convert(diags, diag.Text(src), filename)
}

// parseHCL is Parse with HCL's own diagnostics.
func parseHCL(src []byte, filename string) (k *KB, diags hcl.Diagnostics) {
	defer func() {
		// A safety net: no input may crash a caller. FuzzParse fails on this
		// diagnostic, so a real bug still surfaces in testing.
		if r := recover(); r != nil {
			k = nil
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  internalErrorSummary,
				Detail:   fmt.Sprint(r),
			})
		}
	}()
	if diags := hclguard.Check(src, filename, "knowledge base", MaxFileSize); diags.HasErrors() {
		return nil, diags
	}
	file, diags := hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
	if diags.HasErrors() {
		return nil, diags
	}
	p := &parser{subs: map[string]hcl.Range{}, comments: blockComments(src, filename)}
	k = p.file(file.Body)
	k.Header = headerComment(src, filename)
	diags = append(diags, p.diags...)
	if diags.HasErrors() {
		return nil, diags
	}
	return k, diags
}

const internalErrorSummary = "Internal error in the knowledge base parser"

// parser accumulates diagnostics and the names seen so far.
type parser struct {
	diags hcl.Diagnostics
	subs  map[string]hcl.Range // subcategory name → where it was first declared
	// comments are the comments directly above blocks, by the byte offset
	// of the block's type keyword.
	comments map[int][]string
}

func (p *parser) errorf(rng hcl.Range, summary, format string, args ...any) {
	p.diags = append(p.diags, &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  summary,
		Detail:   fmt.Sprintf(format, args...),
		Subject:  rng.Ptr(),
	})
}

func (p *parser) warnf(rng hcl.Range, summary, format string, args ...any) {
	p.diags = append(p.diags, &hcl.Diagnostic{
		Severity: hcl.DiagWarning,
		Summary:  summary,
		Detail:   fmt.Sprintf(format, args...),
		Subject:  rng.Ptr(),
	})
}

// file decodes the top-level body.
func (p *parser) file(body hcl.Body) *KB {
	content, diags := body.Content(rootSchema)
	p.diags = append(p.diags, diags...)
	k := &KB{}
	if attr, ok := content.Attributes["version"]; ok {
		k.Version = p.version(attr)
	}
	if attr, ok := content.Attributes["irreversible"]; ok {
		k.Irreversible = p.irreversible(attr)
	}
	byName := map[string]*Category{}
	declared := map[string]hcl.Range{}
	ruleIDs := map[string]hcl.Range{}
	for _, block := range content.Blocks {
		switch block.Type {
		case "category":
			c := p.category(block, declared)
			if c != nil {
				byName[c.Name] = c
			}
		case "rule":
			if r := p.rule(block, ruleIDs); r != nil {
				k.Rules = append(k.Rules, r)
			}
		}
	}
	for _, name := range mainCategories {
		if c, ok := byName[name]; ok {
			k.Categories = append(k.Categories, c)
			continue
		}
		p.errorf(body.MissingItemRange(), "Missing main category",
			"The knowledge base must declare the main category %q.", name)
	}
	sort.SliceStable(k.Rules, func(i, j int) bool {
		a, _ := strconv.Atoi(k.Rules[i].ID)
		b, _ := strconv.Atoi(k.Rules[j].ID)
		return a < b
	})
	return k
}

// version decodes and checks the version attribute.
func (p *parser) version(attr *hcl.Attribute) int {
	val, ok := p.value(attr, cty.Number)
	if !ok {
		return 0
	}
	bf := val.AsBigFloat()
	v, acc := bf.Int64()
	if !bf.IsInt() || acc != 0 || v != SupportedVersion {
		p.errorf(attr.Expr.Range(), "Unsupported knowledge base version",
			"This cogflow reads knowledge base version %d, not %s.", SupportedVersion, bf.Text('g', 10))
		return 0
	}
	return int(v)
}

// category decodes one category block; declared records the ranges of the
// categories seen so far. It returns nil for a category that cannot be used.
func (p *parser) category(block *hcl.Block, declared map[string]hcl.Range) *Category {
	name, nameRange := block.Labels[0], block.LabelRanges[0]
	c := &Category{Name: name, Comment: p.comments[block.TypeRange.Start.Byte]}
	content, diags := block.Body.Content(categorySchema)
	p.diags = append(p.diags, diags...)
	c.Definition = p.text(content.Attributes["definition"])
	c.Result = p.result(content.Attributes["result"])
	for _, b := range content.Blocks {
		if s := p.subcategory(b, c); s != nil {
			c.Subcategories = append(c.Subcategories, s)
		}
	}
	if len(c.Subcategories) == 0 && !diags.HasErrors() {
		p.warnf(block.DefRange, "Empty category",
			"The category %q has no subcategories, so no dependency can use it.", name)
	}
	if !isMainName(name) {
		detail := fmt.Sprintf("The main categories are a closed set: %s.", strings.Join(mainCategories[:], ", "))
		if near := suggest.Closest(name, mainCategories[:], 1); len(near) > 0 {
			detail += fmt.Sprintf(" Did you mean %q?", near[0])
		}
		p.errorf(nameRange, "Unknown main category", "%s", detail)
		return nil
	}
	if prev, dup := declared[name]; dup {
		p.errorf(nameRange, "Duplicate category",
			"The category %q was already declared at %s.", name, where(prev))
		return nil
	}
	declared[name] = nameRange
	return c
}

// subcategory decodes one subcategory block of category c.
func (p *parser) subcategory(block *hcl.Block, c *Category) *Subcategory {
	name, nameRange := block.Labels[0], block.LabelRanges[0]
	s := &Subcategory{Name: name, Result: c.Result, Comment: p.comments[block.TypeRange.Start.Byte]}
	content, diags := block.Body.Content(subcategorySchema)
	p.diags = append(p.diags, diags...)
	s.Definition = p.text(content.Attributes["definition"])
	if attr, ok := content.Attributes["result"]; ok {
		s.Result = p.result(attr)
	}
	if attr, ok := content.Attributes["examples"]; ok {
		s.Examples = p.examples(attr, c.Name, name)
	}
	switch prev, dup := p.subs[name]; {
	case !identRE.MatchString(name):
		p.errorf(nameRange, "Invalid subcategory name",
			"A subcategory name must be an identifier (letters, digits, underscores), not %q.", name)
	case isMainName(name):
		p.errorf(nameRange, "Invalid subcategory name",
			"The subcategory %q has the name of a main category.", name)
	case dup:
		p.errorf(nameRange, "Duplicate subcategory",
			"The subcategory %q was already declared at %s; names are unique across categories.", name, where(prev))
	default:
		p.subs[name] = nameRange
	}
	return s
}

// nonEmptyStrings decodes a list of strings of which none may be blank;
// ok is false after an error (summary and detail say what an item is).
func (p *parser) nonEmptyStrings(attr *hcl.Attribute, summary, detail string) (out []string, ok bool) {
	val, ok := p.value(attr, cty.List(cty.String))
	if !ok {
		return nil, false
	}
	for it := val.ElementIterator(); it.Next(); {
		_, v := it.Element()
		if v.IsNull() || strings.TrimSpace(v.AsString()) == "" {
			p.errorf(elemRange(attr, len(out)), summary, "%s", detail)
			return nil, false
		}
		out = append(out, v.AsString())
	}
	return out, true
}

// examples decodes a subcategory's examples and checks their count and form.
func (p *parser) examples(attr *hcl.Attribute, main, sub string) []string {
	out, ok := p.nonEmptyStrings(attr, "Empty example", "An example must be a non-empty description.")
	if !ok {
		return nil
	}
	if len(out) < 2 {
		p.errorf(attr.Expr.Range(), "Too few examples",
			"The subcategory %q needs at least 2 examples, found %d.", sub, len(out))
		return out
	}
	for i, ex := range out {
		m := exampleRE.FindStringSubmatch(ex)
		if m == nil || m[2] != sub || (m[1] != "" && m[1] != main) {
			p.warnf(elemRange(attr, i), "Example not in dependency form",
				"The example %q should read %s<\"description\">(inputs) or %s.%s<\"description\">(inputs).", ex, sub, main, sub)
		}
	}
	return out
}

// elemRange returns the range of the i-th element of a list attribute written
// as a list literal, or of the whole expression otherwise.
func elemRange(attr *hcl.Attribute, i int) hcl.Range {
	if list, ok := attr.Expr.(*hclsyntax.TupleConsExpr); ok && i < len(list.Exprs) {
		return list.Exprs[i].Range()
	}
	return attr.Expr.Range()
}

// rule decodes one rule block; ids records the IDs seen so far.
func (p *parser) rule(block *hcl.Block, ids map[string]hcl.Range) *Rule {
	id, idRange := block.Labels[0], block.LabelRanges[0]
	content, diags := block.Body.Content(ruleSchema)
	p.diags = append(p.diags, diags...)
	r := &Rule{ID: id, Text: p.text(content.Attributes["text"]), Comment: p.comments[block.TypeRange.Start.Byte]}
	if !ruleIDRE.MatchString(id) {
		p.errorf(idRange, "Invalid rule ID",
			"A rule ID is a positive decimal number without leading zeros, not %q.", id)
		return nil
	}
	if prev, dup := ids[id]; dup {
		p.errorf(idRange, "Duplicate rule ID", "The rule %q was already declared at %s.", id, where(prev))
		return nil
	}
	ids[id] = idRange
	return r
}

// text decodes a required non-empty string attribute; a nil attr (already
// reported as missing) gives "".
func (p *parser) text(attr *hcl.Attribute) string {
	if attr == nil {
		return ""
	}
	val, ok := p.value(attr, cty.String)
	if !ok {
		return ""
	}
	if strings.TrimSpace(val.AsString()) == "" {
		p.errorf(attr.Expr.Range(), "Empty text", "The argument %q must not be empty.", attr.Name)
	}
	return val.AsString()
}

// result decodes a result-type attribute.
func (p *parser) result(attr *hcl.Attribute) string {
	s := p.text(attr)
	if s != "" && !IsResultType(s) {
		p.errorf(attr.Expr.Range(), "Unknown result type",
			"A result type is %q, %q or %q, not %q.", ResultText, ResultNumber, ResultElement, s)
		return ""
	}
	return s
}

// value evaluates attr as a constant of type ty: no variables, no functions,
// not null. It reports a diagnostic and returns false when it cannot.
func (p *parser) value(attr *hcl.Attribute, ty cty.Type) (cty.Value, bool) {
	val, diags := attr.Expr.Value(nil)
	p.diags = append(p.diags, diags...)
	if diags.HasErrors() {
		return cty.NilVal, false
	}
	if !val.IsWhollyKnown() || val.IsNull() {
		p.errorf(attr.Expr.Range(), "Invalid value", "The argument %q must be a constant %s.", attr.Name, ty.FriendlyName())
		return cty.NilVal, false
	}
	conv, err := convert.Convert(val, ty)
	if err != nil {
		p.errorf(attr.Expr.Range(), "Invalid value", "The argument %q must be %s: %s.", attr.Name, ty.FriendlyName(), err)
		return cty.NilVal, false
	}
	return conv, true
}

// isMainName reports whether name is in the closed set of main categories.
func isMainName(name string) bool {
	for _, m := range mainCategories {
		if m == name {
			return true
		}
	}
	return false
}

// where formats a range as file:line:column for "declared at" details.
func where(r hcl.Range) string {
	return fmt.Sprintf("%s:%d:%d", r.Filename, r.Start.Line, r.Start.Column)
}
