package android

import "strings"

// classRoles maps a view class's simple name to the language's element
// role. uiautomator reports the class a view gives accessibility
// (getAccessibilityClassName), so custom views mostly arrive as the
// framework class they extend: a MaterialButton is an android.widget.Button.
// The AndroidX and Material names are listed for the views that report
// their own class.
var classRoles = map[string]string{
	"Button": "button", "ImageButton": "button", "FloatingActionButton": "button",
	"MaterialButton": "button", "ExtendedFloatingActionButton": "button", "AppCompatButton": "button",
	"AppCompatImageButton": "button",

	"EditText": "textbox", "AutoCompleteTextView": "textbox", "MultiAutoCompleteTextView": "textbox",
	"TextInputEditText": "textbox", "AppCompatEditText": "textbox", "SearchView$SearchAutoComplete": "textbox",
	"ExtractEditText": "textbox",

	"CheckBox": "checkbox", "AppCompatCheckBox": "checkbox", "MaterialCheckBox": "checkbox",
	"Switch": "switch", "SwitchCompat": "switch", "SwitchMaterial": "switch", "MaterialSwitch": "switch",
	"ToggleButton": "switch",
	"RadioButton":  "radio", "AppCompatRadioButton": "radio", "MaterialRadioButton": "radio",

	"TextView": "text", "AppCompatTextView": "text", "MaterialTextView": "text", "CheckedTextView": "text",
	"ImageView": "image", "AppCompatImageView": "image", "ShapeableImageView": "image",

	"RecyclerView": "list", "ListView": "list", "GridView": "list", "ExpandableListView": "list",
	"AbsListView": "list",

	"Spinner": "combobox", "AppCompatSpinner": "combobox",
	"SeekBar": "slider", "RatingBar": "slider", "AppCompatSeekBar": "slider", "Slider": "slider",
	"NumberPicker": "slider",

	"ActionBar$Tab": "tab", "TabLayout$TabView": "tab", "TabWidget": "list",

	"ScrollView": "region", "NestedScrollView": "region", "HorizontalScrollView": "region",
	"WebView": "region", "ViewPager": "region", "ViewPager2": "region",
}

// simpleName is the class name without its package: android.widget.Button
// → Button, android.app.ActionBar$Tab → ActionBar$Tab.
func simpleName(class string) string {
	if i := strings.LastIndexByte(class, '.'); i >= 0 {
		return class[i+1:]
	}
	return class
}

// classRole is the role a class has on its own, before its place in the
// tree (list items, toolbars, clickable containers) refines it; "" for
// layouts and unknown views.
func classRole(class string) string {
	return classRoles[simpleName(class)]
}

// isLayout reports whether a class is a plain container.
func isLayout(class string) bool {
	switch simpleName(class) {
	case "FrameLayout", "LinearLayout", "RelativeLayout", "ConstraintLayout", "ViewGroup",
		"View", "CoordinatorLayout", "CardView", "MaterialCardView", "TableLayout", "TableRow",
		"GridLayout", "DrawerLayout", "AppBarLayout", "CollapsingToolbarLayout", "TextInputLayout",
		"LinearLayoutCompat", "ContentFrameLayout", "FitWindowsLinearLayout", "ActionBarContainer",
		"ActionBarOverlayLayout", "BottomNavigationView", "NavigationBarView", "BottomNavigationMenuView":
		return true
	}
	return false
}

// isToolbar reports whether a node is an app bar whose texts are titles.
func isToolbar(class, id string) bool {
	switch simpleName(class) {
	case "Toolbar", "ActionBarView", "MaterialToolbar":
		return true
	}
	return strings.HasSuffix(id, "id/action_bar") || strings.HasSuffix(id, "id/toolbar")
}

// shortID strips the app's own package from a resource-id:
// "com.example.contacts:id/name" → "name" for a node of
// com.example.contacts. Ids of the framework and of other packages
// ("android:id/title") stay whole, so they cannot be taken for the app's.
// Short ids also survive build variants whose package has a suffix
// (com.example.contacts.debug keeps the ids of com.example.contacts).
func shortID(id, pkg string) string {
	i := strings.Index(id, ":id/")
	if i < 0 {
		return id
	}
	owner := id[:i]
	if owner == pkg || strings.HasPrefix(pkg, owner+".") {
		return id[i+len(":id/"):]
	}
	return id
}
