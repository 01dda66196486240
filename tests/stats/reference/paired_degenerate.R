# Degenerate paired samples (constant or zero differences), for
# tests/stats/test_paired.py.
#
#   cd tests/stats/reference && Rscript paired_degenerate.R   # paired_degenerate.json
#
# R 4.2 with coin. For each case: what t.test says (its error), the exact
# conditional signed-rank p of coin::wilcoxsign_test(distribution = "exact"),
# binom.test on wins/losses (sign test), and the sign-flip permutation p of
# sum(d) by enumerating all 2^n sign vectors.
suppressPackageStartupMessages(library(coin))
num <- function(x) formatC(x, digits = 17, format = "g")
err_text <- function(expr) tryCatch({ expr; "" }, error = function(e) conditionMessage(e))

x <- c(0.81, 0.77, 0.85, 0.79, 0.80, 0.77, 0.85, 0.82, 0.90, 0.74)
cases <- list(
  list(id = "constant_plus", x = x, y = x + 0.05),
  list(id = "constant_minus_n6", x = x[1:6], y = x[1:6] - 0.02),
  list(id = "constant_abs_mixed_signs", x = x[1:8],
       y = x[1:8] + 0.03 * c(1, 1, 1, 1, 1, 1, -1, 1))
)
out <- character(0)
for (cs in cases) {
  d <- round(cs$x - cs$y, 10)
  n <- length(d)
  t_err <- err_text(t.test(cs$x, cs$y, paired = TRUE))
  w_ci_err <- err_text(suppressWarnings(
    wilcox.test(cs$x, cs$y, paired = TRUE, conf.int = TRUE)))
  dd <- data.frame(y = c(cs$x, cs$y), g = factor(rep(c("x", "y"), each = n)),
                   b = factor(rep(seq_len(n), 2)))
  p_coin <- list()
  for (alt in c("two.sided", "less", "greater")) {
    p_coin[[alt]] <- pvalue(wilcoxsign_test(y ~ g | b, data = dd,
                                            distribution = "exact",
                                            alternative = alt))[1]
  }
  wins <- sum(d > 0); losses <- sum(d < 0)
  p_binom <- binom.test(wins, wins + losses)$p.value
  signs <- as.matrix(expand.grid(rep(list(c(-1, 1)), n)))
  null <- as.vector(signs %*% abs(d))
  obs <- sum(d)
  p_perm <- mean(abs(null) >= abs(obs) - 1e-9)
  p_perm_less <- mean(null <= obs + 1e-9)
  out <- c(out, sprintf(paste0(
    '  {"id": "%s", "x": [%s], "y": [%s], "t_test_error": "%s",\n',
    '   "wilcox_ci_error": "%s", "coin_exact_two_sided": %s,',
    ' "coin_exact_less": %s, "coin_exact_greater": %s,\n',
    '   "binom_test": %s, "permutation_two_sided": %s, "permutation_less": %s}'),
    cs$id, paste(num(cs$x), collapse = ", "), paste(num(cs$y), collapse = ", "),
    t_err, w_ci_err, num(p_coin[["two.sided"]]), num(p_coin[["less"]]),
    num(p_coin[["greater"]]), num(p_binom), num(p_perm), num(p_perm_less)))
}
writeLines(c("[", paste(out, collapse = ",\n"), "]"), "paired_degenerate.json")
