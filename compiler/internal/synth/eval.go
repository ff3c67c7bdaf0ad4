package synth

import (
	"fmt"
	"regexp"
	"sync"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/stdlib/funcs"
)

// library is the function table workflows call; synthesized programs are
// verified with exactly these functions.
var library = sync.OnceValue(func() map[string]function.Function { return funcs.Library(nil) })

// Eval runs the program on new values of its sources, keyed by name, and
// returns the text it computes, as a step typing it would: a number is
// written in plain decimal.
func (p *Program) Eval(sources map[string]string) (string, error) {
	env := map[string]cty.Value{}
	for _, name := range p.Refs() {
		v, ok := sources[name]
		if !ok {
			return "", fmt.Errorf("synth: no value for %s", name)
		}
		env[name] = cty.StringVal(v)
	}
	return evalText(p.Expr, env)
}

// evalText evaluates e with the library and renders its value as text.
func evalText(e ast.Expr, env map[string]cty.Value) (string, error) {
	return evaluator{env: env}.text(e)
}

// screenText evaluates e as evalText does, but runs regex and
// regex_replace with compiled patterns kept from earlier calls. It only
// screens candidates: what it accepts is verified again with the library.
func screenText(e ast.Expr, env map[string]cty.Value) (string, error) {
	return evaluator{env: env, screen: true}.text(e)
}

// evaluator computes the expression forms synthesized programs use:
// literals, references, calls of library functions, indexes and arithmetic.
type evaluator struct {
	env    map[string]cty.Value
	screen bool
}

func (ev evaluator) text(e ast.Expr) (string, error) {
	v, err := ev.eval(e)
	if err != nil {
		return "", err
	}
	return render(v)
}

// eval computes a value, as the library and the interpreter would.
func eval(e ast.Expr, env map[string]cty.Value) (cty.Value, error) {
	return evaluator{env: env}.eval(e)
}

// render writes a value the way the interpreter does when it is typed.
func render(v cty.Value) (string, error) {
	if v.IsNull() || !v.IsKnown() {
		return "", fmt.Errorf("synth: the program has no value")
	}
	if s, ok := funcs.Text(v); ok {
		return s, nil
	}
	return "", fmt.Errorf("synth: the program computes a %s, not text", v.Type().FriendlyName())
}

func (ev evaluator) eval(e ast.Expr) (cty.Value, error) {
	switch e := e.(type) {
	case *ast.StringLit:
		return cty.StringVal(e.Value), nil
	case *ast.NumberLit:
		return funcs.Number(e.Raw)
	case *ast.Ref:
		if v, ok := ev.env[e.Name]; ok {
			return v, nil
		}
		return cty.NilVal, fmt.Errorf("synth: no value for %s", e.Name)
	case *ast.Paren:
		return ev.eval(e.X)
	case *ast.Call:
		return ev.call(e)
	case *ast.Index:
		return ev.index(e)
	case *ast.Unary:
		x, err := ev.eval(e.X)
		if err != nil || e.Op != "-" || x.Type() != cty.Number {
			return cty.NilVal, orErr(err, "synth: cannot apply %s", e.Op)
		}
		return x.Negate(), nil
	case *ast.Binary:
		return ev.binary(e)
	}
	return cty.NilVal, fmt.Errorf("synth: cannot evaluate %T", e)
}

func orErr(err error, format string, args ...any) error {
	if err != nil {
		return err
	}
	return fmt.Errorf(format, args...)
}

func (ev evaluator) call(e *ast.Call) (cty.Value, error) {
	name := e.CalleeName()
	fn, ok := library()[name]
	if !ok {
		return cty.NilVal, fmt.Errorf("synth: unknown function %s", name)
	}
	args := make([]cty.Value, len(e.Args))
	for i, a := range e.Args {
		v, err := ev.eval(a.Value)
		if err != nil {
			return cty.NilVal, err
		}
		args[i] = v
	}
	if ev.screen {
		if v, ok := screenCall(name, args); ok {
			return v, nil
		}
	}
	return funcs.Call(fn, args) // converts as the interpreter does
}

func (ev evaluator) index(e *ast.Index) (cty.Value, error) {
	list, err := ev.eval(e.X)
	if err != nil {
		return cty.NilVal, err
	}
	iv, err := ev.eval(e.Index)
	if err != nil {
		return cty.NilVal, err
	}
	if !list.Type().IsListType() || iv.Type() != cty.Number {
		return cty.NilVal, fmt.Errorf("synth: cannot index %s", list.Type().FriendlyName())
	}
	i, _ := iv.AsBigFloat().Int64()
	items := list.AsValueSlice()
	if i < 0 || int(i) >= len(items) {
		return cty.NilVal, fmt.Errorf("index %d is out of range: the list has %d items", i, len(items))
	}
	return items[i], nil
}

func (ev evaluator) binary(e *ast.Binary) (v cty.Value, err error) {
	x, err := ev.eval(e.X)
	if err != nil {
		return cty.NilVal, err
	}
	y, err := ev.eval(e.Y)
	if err != nil {
		return cty.NilVal, err
	}
	return funcs.Binary(e.Op, x, y) // the interpreter's semantics
}

// screenCall runs regex and regex_replace as the library does, with a
// compiled pattern from the cache; ok is false for any other call, which
// the library then makes. A pattern that does not match (regex) or does not
// compile gives the null value, which render refuses.
func screenCall(name string, args []cty.Value) (cty.Value, bool) {
	var pat, subject cty.Value
	switch name {
	case "regex":
		pat, subject = args[0], args[1]
	case "regex_replace":
		pat, subject = args[1], args[0]
	default:
		return cty.NilVal, false
	}
	if pat.Type() != cty.String || subject.Type() != cty.String {
		return cty.NilVal, false
	}
	re := compiled(pat.AsString())
	if re == nil {
		return cty.NullVal(cty.String), true
	}
	if name == "regex_replace" {
		return cty.StringVal(re.ReplaceAllString(subject.AsString(), args[2].AsString())), true
	}
	m := re.FindStringSubmatch(subject.AsString())
	switch {
	case m == nil:
		return cty.NullVal(cty.String), true
	case len(m) > 1:
		return cty.StringVal(m[1]), true
	}
	return cty.StringVal(m[0]), true
}

// patterns caches compiled patterns: synthesis tries the same few class
// patterns on every text, and compiling \pL is not cheap.
var patterns = struct {
	sync.Mutex
	m map[string]*regexp.Regexp
}{m: map[string]*regexp.Regexp{}}

const maxCachedPatterns = 1024

func compiled(p string) *regexp.Regexp {
	patterns.Lock()
	defer patterns.Unlock()
	if re, ok := patterns.m[p]; ok {
		return re
	}
	re, err := regexp.Compile(p)
	if err != nil {
		re = nil
	}
	if len(patterns.m) >= maxCachedPatterns {
		clear(patterns.m)
	}
	patterns.m[p] = re
	return re
}

// EvalList runs a program that computes a list of texts (split_list(...),
// words(...)) on new values of its sources and returns the texts.
func (p *Program) EvalList(sources map[string]string) ([]string, error) {
	env := map[string]cty.Value{}
	for _, name := range p.Refs() {
		v, ok := sources[name]
		if !ok {
			return nil, fmt.Errorf("synth: no value for %s", name)
		}
		env[name] = cty.StringVal(v)
	}
	v, err := eval(p.Expr, env)
	if err != nil {
		return nil, err
	}
	if v.IsNull() || !v.IsKnown() || !(v.Type().IsListType() || v.Type().IsTupleType()) {
		return nil, fmt.Errorf("synth: the program computes no list")
	}
	var out []string
	for _, item := range v.AsValueSlice() {
		s, ok := funcs.Text(item)
		if !ok {
			return nil, fmt.Errorf("synth: a list item is not text")
		}
		out = append(out, s)
	}
	return out, nil
}
