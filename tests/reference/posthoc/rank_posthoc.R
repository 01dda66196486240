# Reference values for the Friedman-type post-hocs of pairwise_tests and for
# quade_test, durbin_test and friedman_aligned_ranks_test (issue 24).
#
# PMCMRplus's own R code (github cran/PMCMRplus, version 1.9.10, commit
# 36f7247) sourced from a checkout as it is (PMCMRplus is not installed; its
# R files for these tests use base R only, pexactfrsd needs Rmpfr and gmp,
# Debian's r-cran-rmpfr and r-cran-gmp): frdRanks, frdAllPairsConoverTest,
# frdAllPairsSiegelTest, frdAllPairsMillerTest, frdAllPairsNemenyiTest,
# frdAllPairsExactTest, pexactfrsd, quadeAllPairsTest, durbinTest.
# scmamp's R code (github b0rxa/scmamp, commit 3cf4d8b) for
# friedmanAlignedRanksTest and quadeTest, and its data sets data.gh.2008
# (Garcia & Herrera 2008) and data.gh.2010 (Garcia et al. 2010).
# R's own stats::quade.test.
#
# Run from the repository root:
#   PMCMRPLUS_DIR=/path/to/PMCMRplus SCMAMP_DIR=/path/to/scmamp \
#     Rscript tests/reference/posthoc/rank_posthoc.R
# Writes tests/reference/posthoc/rank_posthoc.json.  R 4.2.2.
source("tests/stats/reference/_json.R")
suppressMessages({library(Rmpfr); library(gmp)})
pm <- Sys.getenv("PMCMRPLUS_DIR")
for (f in c("frdRanks", "frdAllPairsConoverTest", "frdAllPairsSiegelTest",
            "frdAllPairsMillerTest", "frdAllPairsNemenyiTest",
            "frdAllPairsExactTest", "pexactfrsd", "quadeAllPairsTest",
            "durbinTest"))
  source(file.path(pm, "R", paste0(f, ".R")))
sc <- Sys.getenv("SCMAMP_DIR")
source(file.path(sc, "R", "tests.R"))
source(file.path(sc, "R", "post_hoc.R"))
load(file.path(sc, "data", "data_gh_2008.RData"))
load(file.path(sc, "data", "data_gh_2010.RData"))

# lower triangle of a PMCMR p-value matrix, in the order of the pairs
# (1,2), (1,3), ..., (k-1,k)
pairs_of <- function(m) {
  k <- ncol(m) + 1
  sapply(seq_len(k * (k - 1) / 2), function(t) {
    pr <- combn(k, 2)[, t]
    m[pr[2] - 1, pr[1]]
  })
}
# Friedman aligned ranks by hand (Garcia et al. 2010, Sec. 3.2), with aligned
# values equal to 9 digits relative to the largest treated as ties: scmamp's
# friedmanAlignedRanksTest breaks such ties by the rounding noise of rowMeans.
aligned_by_hand <- function(y) {
  N <- nrow(y); k <- ncol(y); kn <- k * N
  a <- y - rowMeans(y)
  a <- round(a / max(abs(a)), 9)
  r <- matrix(rank(-a), ncol = k)
  Tn <- (k - 1) * (sum(colSums(r)^2) - (kn * N / 4) * (kn + 1)^2)
  Td <- kn * (kn + 1) * (2 * kn + 1) / 6 - sum(rowSums(r)^2) / k
  list(statistic = Tn / Td, pvalue = pchisq(Tn / Td, k - 1, lower.tail = FALSE))
}
posthocs <- function(y) {
  y <- as.matrix(y)
  out <- list(
    conover_none = I(pairs_of(frdAllPairsConoverTest(y, p.adjust.method = "none")$p.value)),
    conover_holm = I(pairs_of(frdAllPairsConoverTest(y, p.adjust.method = "holm")$p.value)),
    siegel_none = I(pairs_of(frdAllPairsSiegelTest(y, p.adjust.method = "none")$p.value)),
    siegel_holm = I(pairs_of(frdAllPairsSiegelTest(y, p.adjust.method = "holm")$p.value)),
    miller = I(pairs_of(frdAllPairsMillerTest(y)$p.value)),
    nemenyi = I(pairs_of(frdAllPairsNemenyiTest(y)$p.value)),
    quade_none = I(pairs_of(quadeAllPairsTest(y, p.adjust.method = "none")$p.value)),
    quade_holm = I(pairs_of(quadeAllPairsTest(y, p.adjust.method = "holm")$p.value)),
    quade_test = list(statistic = unname(quade.test(y)$statistic),
                      pvalue = quade.test(y)$p.value),
    quade_scmamp = list(statistic = unname(quadeTest(y)$statistic),
                        pvalue = quadeTest(y)$p.value),
    aligned_scmamp = list(statistic = unname(friedmanAlignedRanksTest(y)$statistic),
                          pvalue = friedmanAlignedRanksTest(y)$p.value),
    aligned_by_hand = aligned_by_hand(y),
    # scmamp's Friedman family (Demsar's formulas, no tie correction)
    scmamp_friedman = list(statistic = unname(friedmanTest(y)$statistic),
                           pvalue = friedmanTest(y)$p.value),
    scmamp_iman_davenport = list(statistic = unname(imanDavenportTest(y)$statistic),
                                 pvalue = imanDavenportTest(y)$p.value),
    scmamp_friedman_post = I({m <- friedmanPost(y); m[t(combn(ncol(y), 2))]}),
    scmamp_nemenyi_cd = getNemenyiCD(0.05, ncol(y), nrow(y))
  )
  r <- t(apply(y, 1, rank))
  if (all(r == round(r)))  # Eisinga et al.'s exact test assumes no ties
    out$exact_none <- I(pairs_of(frdAllPairsExactTest(y, p.adjust.method = "none")$p.value))
  out
}

set.seed(2024)
cases <- list()
add <- function(id, y) {
  y <- as.matrix(y)
  colnames(y) <- paste0("L", seq_len(ncol(y)))  # frdRanks needs names
  rownames(y) <- paste0("B", seq_len(nrow(y)))
  cases[[length(cases) + 1]] <<- c(list(id = id, scores = y), posthocs(y))
}
add("gh2008", data.gh.2008)                # 30 x 5
add("gh2010", data.gh.2010)                # 24 x 4
add("normal_6x4", matrix(rnorm(24), 6, 4))
add("shift_12x5", matrix(rnorm(60), 12, 5) + rep(c(0, 0.3, 0.6, 0.9, 1.2), each = 12))
add("ties_10x4", matrix(sample(1:4, 40, replace = TRUE), 10, 4) / 10)
add("small_3x3", matrix(rnorm(9), 3, 3))
add("large_40x6", matrix(rnorm(240), 40, 6) + rep(c(0, 0, 0.2, 0.2, 0.5, 0.5), each = 40))

# Exact p-values of rank-sum differences (pexactfrsd) for a grid of d, k, n;
# d = k = n = 100 is Eisinga et al.'s Example 1 (printed p = 0.8085251).
exact <- list()
for (kn in list(c(3, 5), c(4, 10), c(5, 10), c(5, 30), c(10, 10), c(6, 50), c(100, 100))) {
  k <- kn[1]; n <- kn[2]
  ds <- unique(round(seq(0, n * (k - 1), length.out = 9)))
  exact[[length(exact) + 1]] <- list(
    k = k, n = n, d = I(ds),
    pvalue = I(sapply(ds, function(d) pexactfrsd(d, k, n, "pvalue"))))
}

# Durbin's test: Conover's (1999) ice-cream BIBD (7 varieties, 7 judges, 3 each;
# T1 = 12 by hand, see the test), and a BIBD with t = 4, k = 3, b = 8 (two
# copies of all 3-subsets) of random scores. NA marks a learner absent.
ice <- matrix(NA, 7, 7)
ice[1, c(1, 2, 4)] <- c(2, 3, 1); ice[2, c(2, 3, 5)] <- c(3, 1, 2)
ice[3, c(3, 4, 6)] <- c(2, 1, 3); ice[4, c(4, 5, 7)] <- c(1, 2, 3)
ice[5, c(1, 5, 6)] <- c(3, 1, 2); ice[6, c(2, 6, 7)] <- c(3, 1, 2)
ice[7, c(1, 3, 7)] <- c(3, 1, 2)
b4 <- matrix(NA, 8, 4); sets <- combn(4, 3)
for (i in 1:8) b4[i, sets[, (i - 1) %% 4 + 1]] <- round(runif(3), 2)
durbin <- lapply(list(icecream = ice, bibd_4_3_8 = b4), function(y)
  list(scores = y, statistic = unname(durbinTest(y)$statistic),
       pvalue = durbinTest(y)$p.value))

writeLines(to_json(list(cases = cases, exact = exact, durbin = durbin)),
           "tests/reference/posthoc/rank_posthoc.json")
