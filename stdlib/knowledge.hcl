# cogflow operation-cognition knowledge base (the default shipped with cogflow).
#
# After TaskMind (CHI'25). A cognitive dependency in a workflow is written
# [main.]sub<"description">(inputs...), where sub is a subcategory declared
# here. The compiler's extractor reads the definitions, examples and rules
# below when it turns a demonstration into dependencies; the checker reads the
# result types; `cogflow reflect` adds subcategories and examples learned from
# a person's edits.
#
# Layout:
#   version      schema version of this file (1).
#   irreversible words of an element whose action cannot be undone (it sends,
#                deletes, pays): exploration never takes it unless a person
#                confirms. Optional; exploration has its own list as well.
#   category     one of the five main categories, a closed set, in this order:
#                information_recall, information_comprehension,
#                information_creation, logical_reasoning, contextual_selection.
#                result is the type a dependency returns: text, number or
#                element.
#   subcategory  an open set inside a category; names are unique across the
#                whole file. result, when present, overrides the category's.
#                examples are descriptions in dependency syntax (at least two).
#   rule         numbered guidance for the extractor; the number is a stable
#                identifier, so never renumber: retire a rule by deleting it.
#
# This file is kept in canonical form: this leading comment and the comments
# directly above a category, subcategory or rule block survive reformatting;
# other comments do not. `cogflow kb init` copies this file into a project
# as .cogflow/knowledge.hcl, where it evolves with the workflows.

version = 1

irreversible = [
  "submit",
  "send",
  "delete",
  "remove",
  "pay",
  "buy",
  "purchase",
  "checkout",
  "transfer",
  "place order",
  "confirm purchase",
]

category "information_recall" {
  definition = "Retrieve information exactly as it was seen, entered or known, without changing its content."
  result     = "text"

  subcategory "repeat" {
    definition = "Reproduce, in full and unchanged, a value the user read or entered earlier in the task when it is no longer available as the output of a single step."
    examples = [
      "repeat<\"the order number shown on the confirmation page\">(op4)",
      "repeat<\"the name of the attachment opened at the start of the task\">(op2)",
    ]
  }

  subcategory "extract_information" {
    definition = "Pick out, word for word, the part of a larger text or screen that holds a specific piece of information."
    examples = [
      "extract_information<\"the introductory paragraph about the keyword\">(op2)",
      "extract_information<\"the invoice number in the body of the customer's email\">(op3)",
    ]
  }

  subcategory "look_up" {
    definition = "Retrieve a well-established fact that is not on the screen, such as a code, a name or a date, from general knowledge, given a key from the task."
    examples = [
      "look_up<\"the capital city of the country typed in the form\">(op2)",
      "look_up<\"the ISO currency code of the country in the selected row\">(op5)",
    ]
  }
}

category "information_comprehension" {
  definition = "Understand a text or screen and state what it means: its gist, its translation, its category, an explanation or an answer about it."
  result     = "text"

  subcategory "summarize" {
    definition = "Condense a text to its main points in fewer words while keeping its meaning."
    examples = [
      "summarize<\"summarize the selected paragraph in one sentence\">(op5)",
      "summarize<\"the key decisions of the email thread as three short bullet points\">(op3)",
    ]
  }

  subcategory "translate" {
    definition = "Render a text in another language, keeping its meaning, tone and formatting."
    examples = [
      "translate<\"translate the selected paragraph into French\">(op4)",
      "translate<\"translate the customer's message into English\">(op2)",
    ]
  }

  subcategory "classify" {
    definition = "Assign an item or a text to one label from a stated set of categories according to its content."
    examples = [
      "classify<\"the urgency of the support ticket as low, medium or high\">(op3)",
      "classify<\"whether the receipt is for travel, meals or equipment\">(op6)",
    ]
  }

  subcategory "explain" {
    definition = "Say in plain words what a term, message or passage means or why something happened, for a reader who does not know it."
    examples = [
      "explain<\"what the error message in the dialog means, in one plain sentence\">(op3)",
      "explain<\"the highlighted technical term for a non-expert reader\">(op5)",
    ]
  }

  subcategory "answer_question" {
    definition = "Answer a specific question about a text or the screen by understanding it, when the answer is not written there word for word."
    examples = [
      "answer_question<\"does the product page say the item ships abroad, yes or no\">(op2)",
      "answer_question<\"who is asked to take the next action in the email thread\">(op4)",
    ]
  }
}

category "information_creation" {
  definition = "Produce new text, or a new form of existing text, that did not appear anywhere in the task before."
  result     = "text"

  subcategory "generate" {
    definition = "Write new content for a stated purpose from the given inputs, such as a reply, a title or a message."
    examples = [
      "generate<\"a polite reply that accepts the meeting invitation\">(op2)",
      "generate<\"a short descriptive title for the note based on its content\">(op4)",
    ]
  }

  subcategory "format_text" {
    definition = "Rewrite information into a required format or structure without changing its content, when an exact string function cannot do it."
    examples = [
      "format_text<\"the meeting date mentioned in the email written as YYYY-MM-DD\">(op3)",
      "format_text<\"a file name for the report made of its title in lowercase words joined by hyphens\">(op2)",
    ]
  }

  subcategory "polish_text" {
    definition = "Improve the wording of a text, its grammar, spelling, clarity or tone, while keeping what it says."
    examples = [
      "polish_text<\"correct the grammar and spelling of the drafted reply\">(op4)",
      "polish_text<\"make the note more formal for the team announcement\">(op3)",
    ]
  }
}

category "logical_reasoning" {
  definition = "Derive a result from the given information by calculation, by judging it against a criterion or by comparing items."
  result     = "text"

  subcategory "calculate" {
    definition = "Compute a number from quantities in the inputs, such as a total, a difference, a count or a percentage."
    result     = "number"
    examples = [
      "calculate<\"the total of the amounts in the selected column\">(op3)",
      "calculate<\"the number of nights between the check-in and check-out dates\">(op2, op4)",
    ]
  }

  subcategory "evaluation" {
    definition = "Judge whether something meets a stated condition or criterion and state the verdict."
    examples = [
      "evaluation<\"whether the invoice total matches the order total, yes or no\">(op2, op5)",
      "evaluation<\"whether every required field of the form is filled in correctly\">(op6)",
    ]
  }

  subcategory "compare" {
    definition = "Set two or more items side by side on a stated criterion and report which one ranks first or how they differ."
    examples = [
      "compare<\"the cheaper of the two flight offers\">(op3, op6)",
      "compare<\"the changes between the two versions of the contract clause\">(op2, op4)",
    ]
  }
}

category "contextual_selection" {
  definition = "Choose, among the elements or texts currently on the screen, the one that the context of the task calls for."
  result     = "element"

  subcategory "match_element" {
    definition = "Select the on-screen element, such as a link, a list item, a row or a menu entry, that best matches the context given by the inputs."
    examples = [
      "contextual_selection.match_element<\"the search result most related to the keyword\">(op2)",
      "match_element<\"the spreadsheet row whose name matches the contact in the email\">(op3)",
    ]
  }

  subcategory "explore" {
    definition = "Find an element that is not on the current screen by exploring the app (opening menus, tabs, folders and pages, and going back from wrong paths) until it shows, within a step budget; deterministic when an input describes the element."
    examples = [
      "explore<\"the Import contacts entry of the settings\">(op2)",
      "contextual_selection.explore<\"the file named in the instruction\">(op1)",
    ]
  }

  subcategory "match_text" {
    definition = "Select, from a set of candidate texts on the screen, the text that best matches the context given by the inputs, and return the text itself."
    result     = "text"
    examples = [
      "match_text<\"the catalogue product name closest to the item in the order email\">(op2)",
      "contextual_selection.match_text<\"the existing folder name that best fits the topic of the document\">(op5)",
    ]
  }
}

rule "1" {
  text = "A value typed by the user that appears nowhere on the screen or in an earlier step before is a task input, not a dependency."
}

rule "2" {
  text = "A step has a dependency only when its target element or its typed value cannot be replayed as recorded and must be derived from earlier steps or from the screen."
}

rule "3" {
  text = "Prefer a structural function (same, next, rows, cell, or a string function such as replace or format) when the dependency is positional or an exact transformation; use a cognitive dependency only when judgement is needed."
}

rule "4" {
  text = "An element chosen from a list or from search results, whose choice depends on earlier input, is a contextual_selection.match_element that takes that input as its argument."
}

rule "5" {
  text = "Text taken verbatim from earlier content is information recall: the whole output of one step is same(opN), a part of a larger text is extract_information, and a value the user read earlier and retyped is repeat."
}

rule "6" {
  text = "Choose the subcategory by the relation between the inputs and the result, not by the action that uses it: a typed text that condenses earlier content is summarize whether it was typed or pasted."
}

rule "7" {
  text = "The arguments are exactly the earlier steps, inputs or loop variables whose values the dependency needs, in order of first appearance; no arguments means the dependency reads the current screen."
}

rule "8" {
  text = "Descriptions must be specific enough to be informative and abstract enough to generalize to other inputs: name the role of the data, such as the keyword, never the demonstrated value."
}

rule "9" {
  text = "Write a description as a noun phrase for the result, such as the search result most related to the keyword, or as an imperative for a transformation, such as summarize in one sentence, in about fifteen words at most."
}

rule "10" {
  text = "One dependency computes one result: when a value needs two cognitive operations, such as extracting a passage and then summarizing it, use two dependencies, the second taking the first as its argument."
}

rule "11" {
  text = "The result type must fit the action that uses it: a click or a selection needs an element, so match_element; a typed value needs text, or a number from calculate."
}

rule "12" {
  text = "In an iterative task, describe the dependency for a single iteration and refer to the loop variable, so that the description holds for every item of the list."
}

rule "13" {
  text = "Use a subcategory of this knowledge base when one fits; propose a new snake_case subcategory only when none does, under the main category whose definition fits, and say so."
}

rule "14" {
  text = "A secret input never becomes the argument of a cognitive dependency; a step that needs judgement about a secret is left to the person."
}
