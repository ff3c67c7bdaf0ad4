// Package config reads cogflow's configuration: the `llm` block of
// cogflow.hcl in the project folder and in the user's config folder,
// overridden by environment variables, with defaults for everything left
// unset.
//
//	llm {
//	  base_url      = "http://localhost:11434/v1"  # any OpenAI-compatible endpoint
//	  api_key       = env("MY_KEY")                # or a literal; env() is the only function
//	  text_model    = "gpt-4o-mini"
//	  element_model = "gpt-4o"                     # default: text_model
//	  temperature   = 0                            # 0 to 2
//	  timeout       = "60s"                        # a duration, more than 0
//	  max_retries   = 3                            # 0 to 10
//	  cache_dir     = ".cogflow/cache"             # relative to the project folder
//	  candidate_budget = 800                       # tokens of candidates in a choice prompt
//	  rate_limit    = 60                           # model requests a minute, all workers of a batch together; 0: none
//	}
//
// A urls block widens the URL policy of runs (urls.go).
//
// Precedence, highest first: the environment (OPENAI_API_KEY,
// OPENAI_BASE_URL, COGFLOW_TEXT_MODEL, COGFLOW_ELEMENT_MODEL), the project's
// cogflow.hcl, the user's cogflow.hcl, the defaults. Every value remembers
// where it came from (Source), so `cogflow config` can say why a setting has
// the value it has. The files are decoded with hcl/v2; every problem is
// returned as a lang/diag diagnostic with its position in the file (HCL's
// diagnostics are converted at this package's boundary, internal/hcldiag).
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/cogflow/cogflow/internal/hcldiag"
	"github.com/cogflow/cogflow/internal/hclguard"
	"github.com/cogflow/cogflow/lang/diag"
)

// FileName is the name of the configuration file in both folders.
const FileName = "cogflow.hcl"

// Defaults.
const (
	DefaultBaseURL     = "https://api.openai.com/v1"
	DefaultTextModel   = "gpt-4o-mini"
	DefaultTemperature = 0.0
	DefaultTimeout     = 60 * time.Second
	DefaultMaxRetries  = 3
	DefaultCacheDir    = ".cogflow/cache"
	// DefaultCandidateBudget is model.DefaultCandidateBudget (a test
	// keeps them equal; this package does not import the answerer).
	DefaultCandidateBudget = 800
)

// Limits of the numeric settings.
const (
	MaxTemperature = 2.0
	MaxMaxRetries  = 10
	// A candidate budget below MinCandidateBudget leaves room for a handful
	// of candidates only; above MaxCandidateBudget no model's context fits.
	MinCandidateBudget = 100
	MaxCandidateBudget = 100000
	// MaxRateLimit bounds rate_limit (0 is no limit).
	MaxRateLimit = 1000000
)

// Environment variables that override the files.
const (
	EnvAPIKey       = "OPENAI_API_KEY"
	EnvBaseURL      = "OPENAI_BASE_URL"
	EnvTextModel    = "COGFLOW_TEXT_MODEL"
	EnvElementModel = "COGFLOW_ELEMENT_MODEL"
)

// Field names, as written in the llm block. Source takes them, with or
// without the "llm." prefix.
const (
	FieldBaseURL      = "base_url"
	FieldAPIKey       = "api_key"
	FieldTextModel    = "text_model"
	FieldElementModel = "element_model"
	FieldTemperature  = "temperature"
	FieldTimeout      = "timeout"
	FieldMaxRetries   = "max_retries"
	FieldCacheDir     = "cache_dir"
	// FieldCandidateBudget bounds the candidate list of a choice prompt.
	FieldCandidateBudget = "candidate_budget"
	// FieldRateLimit is the model requests a minute allowed, all
	// workers of a batch together (a name short enough for `cogflow
	// config`'s columns).
	FieldRateLimit = "rate_limit"
)

// Fields lists the llm block's fields in the order they are printed.
var Fields = []string{
	FieldBaseURL, FieldAPIKey, FieldTextModel, FieldElementModel,
	FieldTemperature, FieldTimeout, FieldMaxRetries, FieldCacheDir,
	FieldCandidateBudget, FieldRateLimit,
}

// envOverrides maps the fields the environment may override to their
// variables.
var envOverrides = []struct{ field, name string }{
	{FieldAPIKey, EnvAPIKey},
	{FieldBaseURL, EnvBaseURL},
	{FieldTextModel, EnvTextModel},
	{FieldElementModel, EnvElementModel},
}

// LLM is the effective configuration of the language model endpoint.
type LLM struct {
	// BaseURL is the OpenAI-compatible endpoint, e.g. https://api.openai.com/v1
	// or http://localhost:11434/v1 for Ollama.
	BaseURL string
	// APIKey is the secret sent as a bearer token; empty when not set. Never
	// print it: use Mask.
	APIKey string
	// TextModel answers text dependencies (recall, comprehension, creation,
	// reasoning).
	TextModel string
	// ElementModel chooses elements (contextual_selection); it defaults to
	// TextModel.
	ElementModel string
	Temperature  float64
	// Timeout bounds one request.
	Timeout time.Duration
	// MaxRetries is how many times a failed request (429, 5xx, timeout) is
	// retried.
	MaxRetries int
	// CacheDir is the answer cache's folder, as written: a relative path is
	// relative to the project folder.
	CacheDir string
	// CandidateBudget bounds, in estimated tokens, the list of candidates
	// a choice prompt offers: a big page is cut to the most relevant
	// candidates that fit.
	CandidateBudget int
	// RequestsPerMinute limits the requests to the model made by one
	// command, all the workers of a batch together; 0 means no limit.
	RequestsPerMinute int
}

// File is one configuration file Load looked for.
type File struct {
	Path  string
	Found bool
}

// Config is the effective configuration and where each value came from.
type Config struct {
	LLM LLM
	// AllowOrigins is the urls block's allow list (urls.go): origins a URL
	// from a model or the page may go to besides those the workflow names.
	AllowOrigins []string

	// Project and User are the files looked for; User.Path is empty when
	// there is no user config folder.
	Project, User File

	sources map[string]string
	texts   map[string][]byte // file name → its text, for rendering diagnostics
}

// Load reads FileName in projectDir, then in the user's config folder
// (os.UserConfigDir()/cogflow), and applies the process environment.
// The diagnostics hold every problem found, with positions; the returned
// Config is never nil, and keeps the defaults for values that were wrong.
func Load(projectDir string) (*Config, diag.List) {
	return LoadWith(projectDir, UserDir(), os.Getenv)
}

// UserDir is the user's cogflow config folder, or "" when the system has
// none.
func UserDir() string {
	dir, err := os.UserConfigDir()
	if err != nil || dir == "" {
		return ""
	}
	return filepath.Join(dir, "cogflow")
}

// LoadWith is Load with the user folder and the environment given: userDir
// "" skips the user file, and env looks up environment variables, both for
// the overrides and for env() in the files (nil: no variables at all).
func LoadWith(projectDir, userDir string, env func(string) string) (*Config, diag.List) {
	if env == nil {
		env = func(string) string { return "" }
	}
	c := &Config{sources: map[string]string{}, texts: map[string][]byte{}}
	var diags hcl.Diagnostics

	c.Project.Path = filepath.Join(projectDir, FileName)
	project, d := c.readFile(&c.Project, env)
	diags = append(diags, d...)
	var user map[string]setting
	if userDir != "" {
		c.User.Path = filepath.Join(userDir, FileName)
		user, d = c.readFile(&c.User, env)
		diags = append(diags, d...)
	}

	// Defaults, then the user file, the project file, the environment.
	c.LLM = LLM{
		BaseURL:     DefaultBaseURL,
		TextModel:   DefaultTextModel,
		Temperature: DefaultTemperature,
		Timeout:     DefaultTimeout,
		MaxRetries:  DefaultMaxRetries,
		CacheDir:    DefaultCacheDir,

		CandidateBudget: DefaultCandidateBudget,
	}
	for _, f := range Fields {
		c.sources[f] = "default"
	}
	for _, layer := range []map[string]setting{user, project} {
		for name, s := range layer {
			c.set(name, s.value)
			c.sources[name] = s.source
		}
	}
	for _, o := range envOverrides {
		if v := env(o.name); v != "" {
			c.set(o.field, v)
			c.sources[o.field] = "env " + o.name
		}
	}
	if c.sources[FieldElementModel] == "default" {
		c.LLM.ElementModel = c.LLM.TextModel
		c.sources[FieldElementModel] = "default (text_model)"
	}
	return c, hcldiag.Convert(diags, c.FileText, c.Project.Path)
}

// set stores a decoded value.
func (c *Config) set(field string, v any) {
	l := &c.LLM
	switch field {
	case FieldAllow:
		c.AllowOrigins = v.([]string)
	case FieldBaseURL:
		l.BaseURL = v.(string)
	case FieldAPIKey:
		l.APIKey = v.(string)
	case FieldTextModel:
		l.TextModel = v.(string)
	case FieldElementModel:
		l.ElementModel = v.(string)
	case FieldTemperature:
		l.Temperature = v.(float64)
	case FieldTimeout:
		l.Timeout = v.(time.Duration)
	case FieldMaxRetries:
		l.MaxRetries = v.(int)
	case FieldCacheDir:
		l.CacheDir = v.(string)
	case FieldCandidateBudget:
		l.CandidateBudget = v.(int)
	case FieldRateLimit:
		l.RequestsPerMinute = v.(int)
	}
}

// Source says where a field's value came from: "default",
// "default (text_model)", "env OPENAI_API_KEY", "cogflow.hcl:3:3" or
// "cogflow.hcl:3:3 (env MY_KEY)" when the file read it with env(). The
// field may be written with or without the "llm." prefix; an unknown field
// has source "".
func (c *Config) Source(field string) string {
	return c.sources[strings.TrimPrefix(field, "llm.")]
}

// LLMConfigured reports whether a model can be called: an API key is set,
// or the base URL points elsewhere than OpenAI (local endpoints such as
// Ollama need no key).
func (c *Config) LLMConfigured() bool {
	return c.LLM.APIKey != "" || !IsOpenAI(c.LLM.BaseURL)
}

// IsOpenAI reports whether url is OpenAI's own endpoint.
func IsOpenAI(url string) bool {
	return strings.TrimRight(url, "/") == DefaultBaseURL
}

// FileText returns the text of a configuration file Load read, by the name
// its diagnostics use, or nil.
func (c *Config) FileText(name string) []byte {
	if c == nil {
		return nil
	}
	return c.texts[name]
}

// Mask hides a secret for display: its first 3 and last 2 characters around
// an ellipsis, "…" alone when the secret is too short to show any of it
// safely, "(not set)" when it is empty.
func Mask(secret string) string {
	if secret == "" {
		return "(not set)"
	}
	n := utf8.RuneCountInString(secret)
	if n < 12 {
		return "…"
	}
	r := []rune(secret)
	return string(r[:3]) + "…" + string(r[n-2:])
}

// String renders the effective configuration as Print does.
func (c *Config) String() string {
	var b bytes.Buffer
	c.Print(&b)
	return b.String()
}

// Print writes the effective configuration as an llm block with the key
// masked and each value's source in a comment, the files read, and whether
// a model can be called.
func (c *Config) Print(w io.Writer) {
	fmt.Fprintf(w, "# project file: %s\n", describeFile(c.Project))
	if c.User.Path != "" {
		fmt.Fprintf(w, "# user file:    %s\n", describeFile(c.User))
	} else {
		fmt.Fprintln(w, "# user file:    (no user config folder)")
	}
	fmt.Fprintln(w, "llm {")
	tw := tabwriter.NewWriter(w, 0, 0, 1, ' ', 0)
	for _, f := range Fields {
		fmt.Fprintf(tw, "  %s\t= %s\t  # %s\n", f, c.display(f), c.sources[f])
	}
	tw.Flush()
	fmt.Fprintln(w, "}")
	c.printURLs(w)
	if c.LLMConfigured() {
		fmt.Fprintf(w, "# LLM: configured (%s at %s)\n", modelsOf(c.LLM), c.LLM.BaseURL)
	} else {
		fmt.Fprintf(w, "# LLM: not configured: set %s (or api_key in %s), or point base_url at a local endpoint such as Ollama\n", EnvAPIKey, FileName)
	}
}

func modelsOf(l LLM) string {
	if l.ElementModel == l.TextModel {
		return l.TextModel
	}
	return l.TextModel + " and " + l.ElementModel
}

func describeFile(f File) string {
	if f.Found {
		return f.Path
	}
	return f.Path + " (not found)"
}

// display renders a field's value as HCL, the key masked.
func (c *Config) display(field string) string {
	l := c.LLM
	switch field {
	case FieldBaseURL:
		return quote(l.BaseURL)
	case FieldAPIKey:
		if l.APIKey == "" {
			return Mask("")
		}
		return quote(Mask(l.APIKey))
	case FieldTextModel:
		return quote(l.TextModel)
	case FieldElementModel:
		return quote(l.ElementModel)
	case FieldTemperature:
		return fmt.Sprint(l.Temperature)
	case FieldTimeout:
		return quote(FormatDuration(l.Timeout))
	case FieldMaxRetries:
		return fmt.Sprint(l.MaxRetries)
	case FieldCacheDir:
		return quote(l.CacheDir)
	case FieldCandidateBudget:
		return fmt.Sprint(l.CandidateBudget)
	case FieldRateLimit:
		return fmt.Sprint(l.RequestsPerMinute)
	}
	return ""
}

func quote(s string) string { return fmt.Sprintf("%q", s) }

// FormatDuration writes a duration the way people write timeouts: "60s"
// for whole seconds, Go's notation otherwise ("1.5s", "250ms").
func FormatDuration(d time.Duration) string {
	if d%time.Second == 0 {
		return fmt.Sprintf("%ds", d/time.Second)
	}
	return d.String()
}

// setting is one value decoded from a file and where it was written.
type setting struct {
	value  any
	source string
}

var (
	rootSchema = &hcl.BodySchema{
		Blocks: []hcl.BlockHeaderSchema{{Type: "llm"}},
	}
	llmSchema = &hcl.BodySchema{}
)

func init() {
	for _, f := range Fields {
		llmSchema.Attributes = append(llmSchema.Attributes, hcl.AttributeSchema{Name: f})
	}
}

// readFile reads and decodes one file; a missing file is no problem.
func (c *Config) readFile(f *File, env func(string) string) (map[string]setting, hcl.Diagnostics) {
	src, err := hclguard.ReadFile(f.Path, "configuration file", MaxFileSize)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Cannot read configuration file",
			Detail:   err.Error(),
			Subject:  &hcl.Range{Filename: f.Path, Start: hcl.InitialPos, End: hcl.InitialPos},
		}}
	}
	f.Found = true
	c.texts[f.Path] = src
	return decode(src, f.Path, env)
}

// decode decodes the text of one configuration file.
func decode(src []byte, filename string, env func(string) string) (map[string]setting, hcl.Diagnostics) {
	if diags := hclguard.Check(src, filename, "configuration file", MaxFileSize); diags.HasErrors() {
		return nil, diags
	}
	file, diags := hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
	if diags.HasErrors() {
		return nil, diags
	}
	content, d := file.Body.Content(rootSchema)
	diags = append(diags, d...)
	out := map[string]setting{}
	var first *hcl.Block
	for _, b := range content.Blocks {
		if b.Type == "urls" {
			diags = append(diags, decodeURLs(b, out)...)
			continue
		}
		if first != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Duplicate llm block",
				Detail:   fmt.Sprintf("The llm block was already defined at %s; write each setting once.", short(first.DefRange)),
				Subject:  b.DefRange.Ptr(),
			})
			continue
		}
		first = b
		attrs, d := b.Body.Content(llmSchema)
		diags = append(diags, d...)
		for _, f := range Fields {
			attr, ok := attrs.Attributes[f]
			if !ok {
				continue
			}
			v, src, d := decodeAttr(attr, env)
			diags = append(diags, d...)
			if v != nil {
				out[f] = setting{value: v, source: src}
			}
		}
	}
	return out, diags
}

// short renders a range's start as file:line:col.
func short(r hcl.Range) string {
	return fmt.Sprintf("%s:%d:%d", r.Filename, r.Start.Line, r.Start.Column)
}

// decodeAttr evaluates and validates one attribute. It returns nil for a
// null value or when the value is wrong.
func decodeAttr(attr *hcl.Attribute, env func(string) string) (any, string, hcl.Diagnostics) {
	var read, unset []string
	ctx := &hcl.EvalContext{Functions: map[string]function.Function{
		"env": envFunc(func(name string) string {
			v := env(name)
			read = append(read, name)
			if v == "" {
				unset = append(unset, name)
			}
			return v
		}),
	}}
	val, diags := attr.Expr.Value(ctx)
	if diags.HasErrors() {
		return nil, "", diags
	}
	source := short(attr.Range)
	if len(read) > 0 {
		source += " (env " + strings.Join(read, ", ") + ")"
	}
	for _, name := range unset {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Environment variable not set",
			Detail:   fmt.Sprintf("%s is not set, so env(%q) is empty.", name, name),
			Subject:  attr.Expr.Range().Ptr(),
		})
	}
	if val.IsNull() {
		return nil, "", diags
	}
	invalid := func(format string, args ...any) (any, string, hcl.Diagnostics) {
		return nil, "", append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid value for " + attr.Name,
			Detail:   fmt.Sprintf(format, args...),
			Subject:  attr.Expr.Range().Ptr(),
		})
	}
	wrongType := func(want string) (any, string, hcl.Diagnostics) {
		return nil, "", append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Incorrect attribute value type",
			Detail:   fmt.Sprintf("Inappropriate value for attribute %q: %s required, got %s.", attr.Name, want, val.Type().FriendlyName()),
			Subject:  attr.Expr.Range().Ptr(),
		})
	}
	switch attr.Name {
	case FieldTemperature:
		n, err := convert.Convert(val, cty.Number)
		if err != nil {
			return wrongType("a number is")
		}
		t, _ := n.AsBigFloat().Float64()
		if t < 0 || t > MaxTemperature {
			return invalid("temperature must be between 0 and %g, got %s.", MaxTemperature, n.AsBigFloat().Text('g', -1))
		}
		return t, source, diags
	case FieldMaxRetries, FieldCandidateBudget, FieldRateLimit:
		lo, hi, unit := 0, MaxMaxRetries, ""
		switch attr.Name {
		case FieldCandidateBudget:
			lo, hi, unit = MinCandidateBudget, MaxCandidateBudget, " tokens"
		case FieldRateLimit:
			hi = MaxRateLimit
		}
		n, err := convert.Convert(val, cty.Number)
		if err != nil {
			return wrongType("a number is")
		}
		bf := n.AsBigFloat()
		if !bf.IsInt() {
			return invalid("%s must be a whole number, got %s.", attr.Name, bf.Text('g', -1))
		}
		i, acc := bf.Int64()
		if acc != big.Exact || i < int64(lo) || i > int64(hi) {
			return invalid("%s must be between %d and %d%s, got %s.", attr.Name, lo, hi, unit, bf.Text('f', 0))
		}
		return int(i), source, diags
	}
	// The rest are strings. Numbers and bools are not silently turned into
	// text: `timeout = 30` is a mistake worth pointing at.
	if val.Type() != cty.String {
		if attr.Name == FieldTimeout && val.Type() == cty.Number {
			return invalid("timeout must be a duration string such as \"30s\" or \"2m\", got the number %s.", val.AsBigFloat().Text('g', -1))
		}
		return wrongType("a string is")
	}
	s := val.AsString()
	if s == "" && (len(unset) > 0 || attr.Name == FieldAPIKey) {
		// An unset variable (warned about above) or an empty key leaves
		// the setting to the next file down, as an empty variable does.
		return nil, "", diags
	}
	switch attr.Name {
	case FieldTimeout:
		d, err := time.ParseDuration(s)
		if err != nil {
			return invalid("timeout must be a duration such as \"30s\" or \"2m\", got %q.", s)
		}
		if d <= 0 {
			return invalid("timeout must be more than 0, got %q.", s)
		}
		return d, source, diags
	case FieldBaseURL:
		if !strings.HasPrefix(s, "http://") && !strings.HasPrefix(s, "https://") {
			return invalid("base_url must be an http:// or https:// URL, got %q.", s)
		}
	case FieldTextModel, FieldElementModel, FieldCacheDir:
		if strings.TrimSpace(s) == "" {
			return invalid("%s must not be empty; leave it out to use the default.", attr.Name)
		}
	}
	return s, source, diags
}

// envFunc is the env(name) function of the files: the value of an
// environment variable, "" when it is not set. It is the only function:
// configuration files cannot read other files.
func envFunc(get func(string) string) function.Function {
	return function.New(&function.Spec{
		Description: "Returns the value of an environment variable, or \"\" when it is not set.",
		Params:      []function.Parameter{{Name: "name", Type: cty.String}},
		Type:        function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			name := args[0].AsString()
			if name == "" {
				return cty.NilVal, function.NewArgErrorf(0, "the variable name must not be empty")
			}
			return cty.StringVal(get(name)), nil
		},
	})
}
