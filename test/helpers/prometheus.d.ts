// The parser ships no types; only what the metrics tests read is declared.
declare module "parse-prometheus-text-format" {
  interface Family {
    name: string;
    help: string;
    type: "COUNTER" | "GAUGE" | "HISTOGRAM" | "SUMMARY" | "UNTYPED";
    metrics: Array<{ labels?: Record<string, string>; value?: string; count?: string; sum?: string }>;
  }
  export default function parse(text: string): Family[];
}
