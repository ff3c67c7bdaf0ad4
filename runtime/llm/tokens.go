package llm

import (
	"math"
	"unicode"
	"unicode/utf8"
)

// EstimateTokens estimates how many tokens s takes for an OpenAI-style BPE
// tokenizer (cl100k_base / o200k_base). It is deterministic, needs no
// vocabulary, and is meant for budgets, cost estimates and for filling in
// usage when an endpoint does not report it; it is not exact.
//
// The method mirrors how cl100k pre-tokenizes text and then prices each
// piece:
//
//   - A word (a run of letters) costs about one token: common English words
//     are single tokens whatever their length, so the cost grows only slowly
//     with length (1 up to 5 letters, then about one more token per 5
//     letters for long, rarer words). A single space or punctuation mark
//     directly before a word is absorbed into it (" the", ".com", "'s").
//   - Digits are grouped by three ("12345" → "123" "45").
//   - A run of punctuation costs one token per two characters ("?!!" → 2).
//   - Whitespace is free when it is the one space before a word or a mark;
//     other runs (indentation, blank lines, a space before a number) cost
//     one token per 16 characters.
//   - Non-ASCII text costs more, by script, from measured cl100k rates:
//     an accented Latin letter counts as two letters of its word; Cyrillic
//     about 0.55 token per letter; Greek, Hebrew and Arabic about 0.9; Han,
//     kana and Hangul about 1 per character; other scripts about 1.3 per
//     letter; emoji and other symbols about 0.75 per UTF-8 byte (3 for a
//     typical emoji).
//
// On English prose it is within about 10% of cl100k_base over a paragraph
// and within 25% for a single sentence (see tokens_test.go); for other
// languages expect ±40%.
func EstimateTokens(s string) int {
	if s == "" {
		return 0
	}
	var total float64
	for i := 0; i < len(s); {
		r, _ := utf8.DecodeRuneInString(s[i:])
		switch {
		case isWordRune(r):
			n := wordEnd(s, i)
			total += wordCost(s[i:n])
			i = n
		case unicode.IsDigit(r):
			n := i
			digits := 0
			for n < len(s) {
				d, sz := utf8.DecodeRuneInString(s[n:])
				if !unicode.IsDigit(d) {
					break
				}
				digits++
				n += sz
			}
			total += math.Ceil(float64(digits) / 3)
			i = n
		case unicode.IsSpace(r):
			n, count := i, 0
			for n < len(s) {
				c, sz := utf8.DecodeRuneInString(s[n:])
				if !unicode.IsSpace(c) {
					break
				}
				count++
				n += sz
			}
			next, _ := utf8.DecodeRuneInString(s[n:])
			if n < len(s) && s[n-1] == ' ' && !unicode.IsDigit(next) {
				count-- // the space before a word or a mark belongs to it
			}
			if count > 0 {
				total += math.Ceil(float64(count) / 16)
			}
			i = n
		default: // punctuation, symbols, emoji, control characters
			n, ascii := i, 0
			var symbols float64
			for n < len(s) {
				c, sz := utf8.DecodeRuneInString(s[n:])
				if isWordRune(c) || unicode.IsDigit(c) || unicode.IsSpace(c) {
					break
				}
				if c < utf8.RuneSelf {
					ascii++
				} else {
					symbols += symbolCost(c, sz)
				}
				n += sz
			}
			next, _ := utf8.DecodeRuneInString(s[n:])
			if ascii == 1 && symbols == 0 && n < len(s) && isWordRune(next) {
				// one mark before a word is part of that word
			} else {
				total += math.Ceil(float64(ascii)/2) + symbols
			}
			i = n
		}
	}
	t := int(math.Round(total))
	if t < 1 {
		t = 1
	}
	return t
}

// EstimateMessages estimates the prompt tokens of a chat: each message's
// content plus the chat format's overhead (about 4 tokens per message for
// the role and separators, and 3 to prime the reply), as OpenAI documents
// for its chat models.
func EstimateMessages(msgs []Message) int {
	if len(msgs) == 0 {
		return 0
	}
	n := 3
	for _, m := range msgs {
		n += 4 + EstimateTokens(m.Content)
	}
	return n
}

// isWordRune reports whether r continues a word: a letter, or a combining
// mark (scripts such as Devanagari write vowels as marks).
func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsMark(r)
}

func wordEnd(s string, i int) int {
	for i < len(s) {
		r, sz := utf8.DecodeRuneInString(s[i:])
		if !isWordRune(r) {
			break
		}
		i += sz
	}
	return i
}

// wordCost prices one word. Latin letters accumulate a length (an accented
// letter counts double) priced as English words are; letters of other
// scripts are priced per character at their script's rate.
func wordCost(w string) float64 {
	var latin, other float64
	for _, r := range w {
		switch {
		case r < utf8.RuneSelf:
			latin++
		case r <= 0x24F || (r >= 0x1E00 && r <= 0x1EFF): // Latin-1, Latin Extended
			latin += 2
		default:
			other += scriptRate(r)
		}
	}
	cost := other
	if latin > 0 {
		cost += latinCost(latin)
	}
	return cost
}

// latinCost is the tokens of a Latin word of n (weighted) letters: one token
// up to 5 letters, then a gentle slope (common long words are still one
// token; rare ones split into pieces of 3–5 letters).
func latinCost(n float64) float64 {
	if n <= 5 {
		return 1
	}
	return 1 + (n-5)/5
}

func scriptRate(r rune) float64 {
	switch {
	case r >= 0x0400 && r <= 0x052F: // Cyrillic
		return 0.55
	case r >= 0x0370 && r <= 0x03FF, // Greek
		r >= 0x0590 && r <= 0x05FF, // Hebrew
		r >= 0x0600 && r <= 0x06FF: // Arabic
		return 0.9
	case r >= 0x3040 && r <= 0x30FF: // kana
		return 0.8
	case r >= 0x3400 && r <= 0x9FFF, // Han
		r >= 0xF900 && r <= 0xFAFF: // Han compatibility
		return 1
	case r >= 0xAC00 && r <= 0xD7AF: // Hangul
		return 1.2
	default:
		return 1.15
	}
}

// symbolCost prices a non-ASCII mark or symbol by its UTF-8 length: byte
// fallback pieces make an emoji about 3 tokens; variation selectors and
// joiners are one.
func symbolCost(r rune, size int) float64 {
	switch {
	case r == 0xFE0F || r == 0x200D:
		return 1
	case r >= 0x3000 && r <= 0x303F, r >= 0xFF00 && r <= 0xFFEF: // CJK and full-width punctuation
		return 1
	}
	return 0.75 * float64(size)
}
