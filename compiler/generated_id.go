package compiler

import "regexp"

// generatedIDs match ids that UI libraries number as they render (jQuery
// UI's menus, React's useId, Ember views, Angular Material, Headless UI,
// Radix, MUI, Downshift, react-select): the same element gets another
// number when the page renders in another order, so such an id does not
// find the element again and is never used to describe it.
var generatedIDs = regexp.MustCompile(`^(ui-id-\d+|ember\d+|mat-[a-z-]+-\d+|cdk-[a-z-]+-\d+|mui-\d+|headlessui-[a-z-]+-[\w:«»]+|radix-[\w:«»-]+|downshift-\d+(-[a-z]+(-\d+)?)?|react-select-\d+-[a-z]+(-\d+)?|[:«]r[0-9a-z]+[:»].*)$`)

// generatedID reports whether id looks numbered by a UI library as it
// rendered.
func generatedID(id string) bool { return generatedIDs.MatchString(id) }
