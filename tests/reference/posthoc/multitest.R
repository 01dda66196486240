# Reference values for adjust_pvalues (sklearn_bench/stats/_multitest.py).
#
# hochberg, hommel, holm: R's p.adjust. finner, li, holland, rom: scmamp's own
# R code (github b0rxa/scmamp, commit 3cf4d8b9759769cdf20771afa0efc33a5265c7f9),
# R/post_hoc.R sourced from a checkout as it is (scmamp is not installed).
#
# Run from the repository root:
#   SCMAMP_DIR=/path/to/scmamp Rscript tests/reference/posthoc/multitest.R
# Writes tests/reference/posthoc/multitest.json.  R 4.2.2.
source("tests/stats/reference/_json.R")
source(file.path(Sys.getenv("SCMAMP_DIR"), "R", "post_hoc.R"))

set.seed(24)
cases <- list()
add <- function(id, p) {
  m <- length(p)
  out <- list(id = id, p = I(p),
              holm = I(p.adjust(p, "holm")),
              hochberg = I(p.adjust(p, "hochberg")),
              hommel = I(p.adjust(p, "hommel")),
              finner = I(adjustFinner(p)),
              holland = I(adjustHolland(p)),
              li = I(suppressWarnings(adjustLi(p))))
  # scmamp's adjustRom runs its recursion backwards for m <= 2 (3:(k - 1) is
  # c(3, 2) or c(3, 2, 1) in R): only m >= 3 is a reference.
  if (m >= 3) {
    out$rom_0.05 <- I(adjustRom(p, alpha = 0.05))
    out$rom_0.1 <- I(adjustRom(p, alpha = 0.1))
  }
  cases[[length(cases) + 1]] <<- out
}
for (m in c(3, 4, 5, 6, 10, 15, 21, 45)) {
  add(paste0("uniform_m", m), runif(m))
  add(paste0("small_m", m), round(runif(m)^3 / 4, 4))   # rounding makes ties
}
add("with_zero_and_one", c(0, 0.001, 0.2, 0.5, 1))
add("all_equal", rep(0.03, 6))
# Garcia & Herrera (2008) data (scmamp's data.gh.2008): Friedman post-hoc raw
# p-values of all pairs, as scmamp's examples adjust them.
load(file.path(Sys.getenv("SCMAMP_DIR"), "data", "data_gh_2008.RData"))
source(file.path(Sys.getenv("SCMAMP_DIR"), "R", "tests.R"))
raw <- friedmanPost(data.gh.2008)
add("gh2008_friedman_pairs", raw[upper.tri(raw)])
# Rom's (1990) Table 1 critical values at alpha = 0.05, from scmamp's recursion
rom_constants <- function(m, alpha) {
  k <- m + 1
  a <- numeric(m); a[m] <- alpha; a[m - 1] <- alpha / 2
  for (i in 3:m) {
    j1 <- 1:(i - 1); j2 <- 1:(i - 2)
    a[k - i] <- (sum(alpha^j1) - sum(choose(i, j2) * a[k - 1 - j2]^(i - j2))) / i
  }
  rev(a)
}
out <- list(cases = cases, rom_constants_0.05 = I(rom_constants(10, 0.05)))
writeLines(to_json(out), "tests/reference/posthoc/multitest.json")
