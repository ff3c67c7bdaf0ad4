package llm

import (
	"strings"
)

// Price is what a model costs, in US dollars per million tokens.
type Price struct {
	Input  float64 // per 1M prompt tokens
	Output float64 // per 1M completion tokens
}

// PricesAsOf is when the Prices table was last checked against the
// providers' published list prices (standard tier, no batch or cache
// discounts).
const PricesAsOf = "2025-08"

// Prices maps a model name prefix to its list price. The longest prefix
// that starts a model's name wins, so "gpt-4o-mini-2024-07-18" is priced as
// "gpt-4o-mini", not "gpt-4o". A provider prefix ("openai/gpt-4o") is
// ignored. Models not listed (local models, other providers) are unknown:
// Cost reports 0 and known=false rather than guessing.
//
// The table is read-only: look prices up with PriceOf or Cost.
var Prices = map[string]Price{
	// OpenAI GPT-5 family.
	"gpt-5":      {Input: 1.25, Output: 10},
	"gpt-5-mini": {Input: 0.25, Output: 2},
	"gpt-5-nano": {Input: 0.05, Output: 0.40},
	// GPT-4.1 family.
	"gpt-4.1":      {Input: 2, Output: 8},
	"gpt-4.1-mini": {Input: 0.40, Output: 1.60},
	"gpt-4.1-nano": {Input: 0.10, Output: 0.40},
	// GPT-4o family.
	"gpt-4o":      {Input: 2.50, Output: 10},
	"gpt-4o-mini": {Input: 0.15, Output: 0.60},
	// Older chat models.
	"gpt-4-turbo":   {Input: 10, Output: 30},
	"gpt-4":         {Input: 30, Output: 60},
	"gpt-3.5-turbo": {Input: 0.50, Output: 1.50},
	// Reasoning models.
	"o1":      {Input: 15, Output: 60},
	"o1-mini": {Input: 1.10, Output: 4.40},
	"o3":      {Input: 2, Output: 8},
	"o3-mini": {Input: 1.10, Output: 4.40},
	"o3-pro":  {Input: 20, Output: 80},
	"o4-mini": {Input: 1.10, Output: 4.40},
}

// PriceOf returns the price of model by the longest matching prefix in
// Prices (case-insensitive), and whether there was one.
func PriceOf(model string) (Price, bool) {
	name := strings.ToLower(strings.TrimSpace(model))
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	best, found := "", false
	for prefix := range Prices {
		if strings.HasPrefix(name, prefix) && len(prefix) > len(best) && isPrefixBoundary(name, prefix) {
			best, found = prefix, true
		}
	}
	if !found {
		return Price{}, false
	}
	return Prices[best], true
}

// isPrefixBoundary keeps "o1" from pricing a model called "o100" or
// "gpt-4" from pricing "gpt-40": the prefix must be the whole name or be
// followed by a separator.
func isPrefixBoundary(name, prefix string) bool {
	if len(name) == len(prefix) {
		return true
	}
	switch name[len(prefix)] {
	case '-', '.', ':', '@', '_':
		return true
	}
	return false
}

// Cost estimates the US dollars a call to model with in prompt tokens and
// out completion tokens costs at list price. known is false, and usd 0,
// when the model is not in Prices.
func Cost(model string, in, out int) (usd float64, known bool) {
	p, ok := PriceOf(model)
	if !ok {
		return 0, false
	}
	return (float64(in)*p.Input + float64(out)*p.Output) / 1e6, true
}
