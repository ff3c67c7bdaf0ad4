package main

import (
	"fmt"
	"strconv"
	"strings"
)

// Tasks acting on a set of items named by the instruction, and the email
// inbox family (one script: the instruction says which of reply, forward,
// delete or star this instance asks for).

func init() {
	checkboxes := func(h *person) error {
		names := between(h.query(), "Select ", " and click Submit")
		if names != "nothing" {
			for _, n := range strings.Split(names, ", ") {
				if err := h.click(withText("#area label", n)); err != nil {
					return err
				}
			}
		}
		return h.click(css("#subbtn"))
	}
	register("click-checkboxes", checkboxes)
	register("click-checkboxes-large", checkboxes)

	social := func(some bool) func(*person) error {
		return func(h *person) error {
			q := h.query()
			action := strings.ToLower(quoted(q))
			user := strings.TrimSpace(between(q, " by ", " and then"))
			want := -1 // all
			if some {
				n, err := strconv.Atoi(between(q, "button on ", " post"))
				if err != nil {
					return fmt.Errorf("reading how many posts in %q: %w", q, err)
				}
				want = n
			}
			users := strings.Split(h.read(`[...document.querySelectorAll('#area .media .username')].map(e => e.textContent.trim()).join('\n')`), "\n")
			done := 0
			for i, u := range users {
				if u != user || done == want {
					continue
				}
				if err := h.click(css("#area .media ." + action).nth(i)); err != nil {
					return err
				}
				done++
			}
			if done == 0 {
				return fmt.Errorf("no post by %s", user)
			}
			return h.click(withText("#submitRow button", "Submit"))
		}
	}
	register("social-media-all", social(false))
	register("social-media-some", social(true))

	for _, t := range []string{"email-inbox", "email-inbox-delete", "email-inbox-forward", "email-inbox-reply", "email-inbox-star-reply"} {
		register(t, emailInbox)
	}
}

// emailInbox opens the email of the sender the instruction names and
// does what it asks.
func emailInbox(h *person) error {
	q := h.query()
	sender := between(q, "Find the email by ", " and ")
	if err := h.click(withText("#main .email-thread .email-sender", sender)); err != nil {
		return err
	}
	switch {
	case strings.Contains(q, "reply to them with the text"):
		h.variant = "reply"
		return seq(h.click(css("#email .email-reply")),
			func() error { return h.fill(css("#reply-text"), quoted(q)) },
			func() error { return h.click(css("#send-reply")) })
	case strings.Contains(q, "forward that email to "):
		h.variant = "forward"
		to := strings.TrimSuffix(strings.TrimSpace(q[strings.Index(q, "forward that email to ")+len("forward that email to "):]), ".")
		return seq(h.click(css("#email .email-forward")),
			func() error { return h.fill(css(".forward-sender"), to) },
			func() error { return h.click(css("#send-forward")) })
	case strings.Contains(q, "trash icon"):
		h.variant = "delete"
		return h.click(css("#email .email-actions .trash"))
	case strings.Contains(q, "star icon"):
		h.variant = "star"
		return h.click(css("#email .email-actions .star"))
	}
	return fmt.Errorf("an instruction the script does not know: %q", q)
}
