fn main() {
    println!("{}", mcpward::VERSION);
}
