# Minimal JSON writer for the reference scripts (jsonlite is not installed).
# Numbers carry 17 significant digits; NA/NaN -> null; +-Inf -> "Inf"/"-Inf".
# A length-1 atomic is a scalar unless wrapped in I(); lists with names are
# objects, without names arrays.
to_json <- function(x, indent = 0) {
  pad <- strrep(" ", indent + 2)
  end <- strrep(" ", indent)
  scalar <- function(v) {
    if (is.na(v) && !is.nan(v) && !is.numeric(v)) return("null")
    if (is.logical(v)) return(if (is.na(v)) "null" else tolower(as.character(v)))
    if (is.numeric(v)) {
      if (is.nan(v) || is.na(v)) return("null")
      if (is.infinite(v)) return(if (v > 0) "\"Inf\"" else "\"-Inf\"")
      return(trimws(formatC(v, digits = 17, format = "g")))
    }
    paste0("\"", gsub("\"", "\\\\\"", as.character(v)), "\"")
  }
  if (is.list(x)) {
    if (length(x) == 0) return(if (is.null(names(x))) "[]" else "{}")
    items <- vapply(x, to_json, "", indent = indent + 2)
    if (!is.null(names(x))) {
      items <- paste0("\"", names(x), "\": ", items)
      return(paste0("{\n", pad, paste(items, collapse = paste0(",\n", pad)), "\n", end, "}"))
    }
    return(paste0("[\n", pad, paste(items, collapse = paste0(",\n", pad)), "\n", end, "]"))
  }
  if (is.matrix(x)) {
    rows <- lapply(seq_len(nrow(x)), function(i) I(x[i, ]))
    return(to_json(rows, indent))
  }
  if (length(x) == 1 && !inherits(x, "AsIs")) return(scalar(x))
  paste0("[", paste(vapply(unclass(x), scalar, ""), collapse = ", "), "]")
}
