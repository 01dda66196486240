# Reference values for sklearn_bench/stats/_pairwise.py.
#
# Holm: R's p.adjust. Shaffer and Bergmann-Hommel: scmamp's own R code
# (github b0rxa/scmamp, commit 3cf4d8b9759769cdf20771afa0efc33a5265c7f9), sourced
# from a checkout of it: R/post_hoc.R (adjustShaffer, adjustBergmannHommel) and
# R/sysdata.rda (scmamp's precomputed exhaustive sets), plus its data set
# data/data_gh_2008.RData (Garcia & Herrera 2008, 30 data sets x 5 algorithms).
# scmamp is not installed; its files are sourced as they are.
#
# Run from the repository root with the checkout's path:
#   SCMAMP_DIR=/path/to/scmamp Rscript tests/stats/reference/pairwise.R
# Writes tests/stats/reference/pairwise.json.  R 4.2.2.
source("tests/stats/reference/_json.R")
scmamp <- Sys.getenv("SCMAMP_DIR")
source(file.path(scmamp, "R", "post_hoc.R"))
source(file.path(scmamp, "R", "tests.R"))            # rankMatrix, for friedmanPost
load(file.path(scmamp, "R", "sysdata.rda"))           # exhaustive.sets, k <= 9
load(file.path(scmamp, "data", "data_gh_2008.RData"))  # data.gh.2008

pairs_of <- function(k) generatePairs(k, NULL)          # (1,2), (1,3), ..., (k-1,k)
as_matrix <- function(p, k) {
  m <- matrix(NA, k, k); pr <- pairs_of(k)
  m[pr] <- p; m[pr[, 2:1]] <- p
  m
}
# Bergmann-Hommel as the closed test (Garcia & Herrera 2008, Sec. 2.2): the inner
# part of scmamp's adjustBergmannHommel, before its monotonicity step.
bh_closed <- function(p, k) {
  raw <- as_matrix(p, k); pr <- pairs_of(k)
  sapply(seq_len(nrow(pr)), function(i) {
    v <- unlist(lapply(exhaustive.sets[[k]], function(x) {
      s <- matrix(x, nrow = 2)
      if (any(colSums(pr[i, ] == s) == 2)) min(ncol(s) * min(raw[t(s)]), 1)
    }))
    max(v)
  })
}
adjust_all <- function(p, k) {
  pr <- pairs_of(k)
  list(holm = I(p.adjust(p, "holm")),
       shaffer = I(adjustShaffer(as_matrix(p, k))[pr]),
       bergmann_hommel_scmamp = I(adjustBergmannHommel(as_matrix(p, k))[pr]),
       bergmann_hommel_closed = I(bh_closed(p, k)))
}

# 1. Adjustments of given p-values, k = 3..9.
set.seed(13)
adjust_cases <- list()
for (k in 3:9) {
  m <- k * (k - 1) / 2
  for (shape in c("uniform", "small")) {
    p <- if (shape == "uniform") runif(m) else signif(rbeta(m, 0.3, 4), 3)
    n_sets <- length(unique(sapply(exhaustive.sets[[k]], function(x) {
      s <- matrix(x, nrow = 2)
      paste(sort(apply(s, 2, function(c) paste(sort(c), collapse = "-"))), collapse = ",")
    })))
    adjust_cases[[length(adjust_cases) + 1]] <- c(
      list(k = k, shape = shape, pvalues = I(p), n_exhaustive_sets = n_sets),
      adjust_all(p, k))
  }
}

# 2. All-pairs tests on data: Wilcoxon signed-rank as R's wilcox.test(d, correct =
# FALSE) (zeros dropped; exact when n < 50 without ties), and the sign test with
# Demsar's tie split (binom.test).
pairwise_case <- function(data, name) {
  data <- as.matrix(data); k <- ncol(data); pr <- pairs_of(k)
  wil <- sign <- rb <- numeric(nrow(pr))
  for (i in seq_len(nrow(pr))) {
    d <- round(data[, pr[i, 1]] - data[, pr[i, 2]], 10)
    wt <- suppressWarnings(wilcox.test(d, correct = FALSE))
    wil[i] <- wt$p.value
    nz <- d[d != 0]; r <- rank(abs(nz)); n <- length(nz)
    rb[i] <- (sum(r[nz > 0]) - sum(r[nz < 0])) / (n * (n + 1) / 2)
    stopifnot(abs(rb[i] - (4 * wt$statistic / (n * (n + 1)) - 1)) < 1e-12)
    ties <- sum(d == 0)
    w <- sum(d > 0) + ties %/% 2; l <- sum(d < 0) + ties %/% 2
    sign[i] <- binom.test(w, w + l)$p.value
  }
  list(name = name, learners = I(colnames(data)), datasets = I(rownames(data)),
       scores = data, wilcoxon = c(list(pvalues = I(wil), rank_biserial = I(rb)),
                                   adjust_all(wil, k)),
       sign = c(list(pvalues = I(sign)), adjust_all(sign, k)))
}
demsar <- read.csv(file.path("..", "shared", "reference", "demsar2006_table6_auc.csv"),
                   check.names = FALSE)
demsar_m <- as.matrix(demsar[, -1]); rownames(demsar_m) <- demsar[, 1]
data_cases <- list(pairwise_case(data.gh.2008, "data.gh.2008"),
                   pairwise_case(demsar_m, "demsar2006_table6_auc"))

# 3. Garcia & Herrera's (2008) own setting: Friedman mean-rank z tests
# (scmamp's friedmanPost) on data.gh.2008, adjusted by Shaffer and Bergmann-Hommel.
fp <- friedmanPost(data.gh.2008)
fp_raw <- fp[pairs_of(ncol(data.gh.2008))]
friedman_case <- c(list(name = "data.gh.2008", pvalues = I(fp_raw)),
                   adjust_all(fp_raw, ncol(data.gh.2008)))

writeLines(to_json(list(
  meta = list(generator = "tests/stats/reference/pairwise.R", R = R.version.string,
              scmamp_commit = "3cf4d8b9759769cdf20771afa0efc33a5265c7f9"),
  adjust = adjust_cases, data = data_cases, friedman = friedman_case)),
  "tests/stats/reference/pairwise.json")
