//! A small dense network run in plain Rust: the learned evaluations' arithmetic, so that
//! playing needs no machine-learning runtime (training is PyTorch's, in a script under
//! `benchmarks/`, which writes the weights as JSON; the core compiles them in).
//!
//! Every input is 0 or 1 (cards held, one-hot counts), so the first layer adds the weight
//! rows of the inputs that are set instead of multiplying a mostly zero vector; the hidden
//! layers are ReLU, the last is linear (logits).

use serde::Deserialize;

/// The widest layer a network may have (the hidden values live on the stack).
pub const MAX_WIDTH: usize = 256;

/// One layer as the training script writes it: `weights[o][i]`, PyTorch's `Linear` order.
#[derive(Debug, Deserialize)]
struct LayerText {
    weights: Vec<Vec<f32>>,
    bias: Vec<f32>,
}

#[derive(Debug, Deserialize)]
struct NetText {
    inputs: usize,
    layers: Vec<LayerText>,
}

/// A dense layer, `outputs × inputs` in rows of one output each (or, for the first layer,
/// in rows of one input each: see [`Mlp::forward_set`]).
#[derive(Debug, Clone)]
struct Layer {
    inputs: usize,
    outputs: usize,
    weights: Vec<f32>,
    bias: Vec<f32>,
}

/// A multilayer perceptron over 0/1 inputs.
#[derive(Debug, Clone)]
pub struct Mlp {
    inputs: usize,
    layers: Vec<Layer>,
}

impl Mlp {
    /// Reads the training script's JSON (`{"inputs": n, "layers": [{"weights", "bias"}]}`),
    /// refusing a network whose shapes do not chain or are wider than [`MAX_WIDTH`].
    pub fn from_json(text: &str) -> Result<Mlp, String> {
        let parsed: NetText = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if parsed.layers.is_empty() {
            return Err("a network needs at least one layer".into());
        }
        let mut width = parsed.inputs;
        let mut layers = Vec::with_capacity(parsed.layers.len());
        for (k, layer) in parsed.layers.iter().enumerate() {
            let outputs = layer.bias.len();
            if outputs == 0 || outputs > MAX_WIDTH || layer.weights.len() != outputs {
                return Err(format!(
                    "layer {k}: {outputs} biases and {} weight rows (at most {MAX_WIDTH})",
                    layer.weights.len()
                ));
            }
            if let Some(row) = layer.weights.iter().find(|row| row.len() != width) {
                return Err(format!(
                    "layer {k}: a row of {} weights, not {width}",
                    row.len()
                ));
            }
            let weights = if k == 0 {
                // Input-major, so that an input's contribution is one contiguous row.
                (0..width)
                    .flat_map(|i| layer.weights.iter().map(move |row| row[i]))
                    .collect()
            } else {
                layer.weights.concat()
            };
            layers.push(Layer {
                inputs: width,
                outputs,
                weights,
                bias: layer.bias.clone(),
            });
            width = outputs;
        }
        Ok(Mlp {
            inputs: parsed.inputs,
            layers,
        })
    }

    pub fn inputs(&self) -> usize {
        self.inputs
    }

    pub fn outputs(&self) -> usize {
        self.layers.last().map_or(0, |l| l.outputs)
    }

    /// How many numbers the network holds (weights and biases).
    pub fn parameters(&self) -> usize {
        self.layers
            .iter()
            .map(|l| l.weights.len() + l.bias.len())
            .sum()
    }

    /// The outputs (logits) for the inputs whose indices are `set` (each below
    /// [`Mlp::inputs`]; every other input is 0), written into `out[..outputs]`.
    pub fn forward_set(&self, set: &[usize], out: &mut [f32]) {
        let first = &self.layers[0];
        let mut a = [0.0f32; MAX_WIDTH];
        let mut b = [0.0f32; MAX_WIDTH];
        let h = first.outputs;
        a[..h].copy_from_slice(&first.bias);
        for &i in set {
            let row = &first.weights[i * h..(i + 1) * h];
            for (x, w) in a[..h].iter_mut().zip(row) {
                *x += w;
            }
        }
        let mut width = h;
        for layer in &self.layers[1..] {
            for x in &mut a[..width] {
                *x = x.max(0.0);
            }
            for (o, y) in b[..layer.outputs].iter_mut().enumerate() {
                let row = &layer.weights[o * layer.inputs..(o + 1) * layer.inputs];
                *y = layer.bias[o] + row.iter().zip(&a[..width]).map(|(w, x)| w * x).sum::<f32>();
            }
            width = layer.outputs;
            std::mem::swap(&mut a, &mut b);
        }
        out[..width].copy_from_slice(&a[..width]);
    }
}

/// The softmax of `logits`, in place.
pub fn softmax(logits: &mut [f32]) {
    let top = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut total = 0.0;
    for x in logits.iter_mut() {
        *x = (*x - top).exp();
        total += *x;
    }
    for x in logits.iter_mut() {
        *x /= total;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = r#"{"inputs": 3, "layers": [
        {"weights": [[1, 0, 2], [0, -1, 1]], "bias": [0.5, 0]},
        {"weights": [[1, 1], [2, -1]], "bias": [0, 1]}]}"#;

    #[test]
    fn the_forward_pass_is_the_dense_one() {
        let net = Mlp::from_json(SMALL).unwrap();
        assert_eq!((net.inputs(), net.outputs(), net.parameters()), (3, 2, 14));
        let mut out = [0.0; 2];
        // Inputs 0 and 2 set: hidden (0.5+1+2, 0+0+1) = (3.5, 1); out (4.5, 1+7-1 = 7).
        net.forward_set(&[0, 2], &mut out);
        assert_eq!(out, [4.5, 7.0]);
        // Input 1 alone: hidden (0.5, -1) → ReLU (0.5, 0); out (0.5, 2).
        net.forward_set(&[1], &mut out);
        assert_eq!(out, [0.5, 2.0]);
    }

    #[test]
    fn shapes_that_do_not_chain_are_refused() {
        let bad = r#"{"inputs": 3, "layers": [{"weights": [[1, 0]], "bias": [0]}]}"#;
        assert!(Mlp::from_json(bad).unwrap_err().contains("not 3"));
        assert!(Mlp::from_json(r#"{"inputs": 3, "layers": []}"#).is_err());
    }

    #[test]
    fn softmax_sums_to_one() {
        let mut x = [1.0, 2.0, 3.0];
        softmax(&mut x);
        assert!((x.iter().sum::<f32>() - 1.0).abs() < 1e-6);
        assert!(x[2] > x[1] && x[1] > x[0]);
    }
}
