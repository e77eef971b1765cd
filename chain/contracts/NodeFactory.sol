// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @title NodeFactory: nodes minted for verified payments, credited in rounds, withdrawn by owners.
/// @notice The contract never sees a payment: the operator's minter mints a node for each payment
/// it verified off chain, naming the payment transaction as `paymentRef`, so a payment can never
/// mint twice. The distributor credits nodes in rounds; owners withdraw their balance to any
/// address at any time, paused or not.
contract NodeFactory {
    /// @dev Written by every credit and withdrawal: one storage slot per node, so crediting a node
    /// in a batch costs one storage write. balance = credited - withdrawn. `live` is set at mint so
    /// that even a node's first credit rewrites a non-zero slot, the cheap kind of write.
    struct Account {
        uint128 credited;
        uint120 withdrawn;
        bool live;
    }

    /// @dev Written once, at mint.
    struct Meta {
        address owner;
        uint8 tier;
    }

    address public owner;
    address public minter;
    address public distributor;
    bool public paused;
    uint32 public maxPerWallet;

    /// @notice Number of nodes minted; node ids run from 1 to nodeCount.
    uint256 public nodeCount;
    /// @notice What the contract owes: the sum over nodes of credited - withdrawn.
    uint256 public totalOutstanding;

    mapping(uint256 => Account) private accounts;
    mapping(uint256 => Meta) private metas;
    mapping(address => uint256[]) private owned;
    mapping(bytes32 => bool) public paymentRefUsed;
    mapping(uint256 => bool) public roundUsed;

    event NodeMinted(uint256 indexed id, address indexed owner, uint8 tier, bytes32 paymentRef);
    event Credited(uint256 indexed roundId, uint256 nodes, uint256 total);
    event Withdrawn(uint256 indexed id, address indexed owner, address to, uint256 amount);
    event Transferred(uint256 indexed id, address indexed from, address indexed to);
    event Paused(bool paused);
    event RolesChanged(address owner, address minter, address distributor);
    event MaxPerWalletChanged(uint32 maxPerWallet);

    error NotOwner();
    error NotMinter();
    error NotDistributor();
    error NotNodeOwner();
    error MintingPaused();
    error PaymentRefUsed();
    error WalletFull();
    error RoundUsed();
    error LengthMismatch();
    error UnknownNode();
    error ZeroAddress();
    error InsufficientBalance();
    error Insolvent();
    error TransferFailed();
    error Reentered();
    error AmountTooLarge();

    modifier onlyOwner() {
        if (msg.sender != owner) revert NotOwner();
        _;
    }

    /// @dev Lives in transient storage: a re-entered withdraw reverts, at almost no gas.
    bool private transient entered;

    modifier nonReentrant() {
        if (entered) revert Reentered();
        entered = true;
        _;
        entered = false;
    }

    constructor(address minter_, address distributor_, uint32 maxPerWallet_) {
        if (minter_ == address(0) || distributor_ == address(0)) revert ZeroAddress();
        owner = msg.sender;
        minter = minter_;
        distributor = distributor_;
        maxPerWallet = maxPerWallet_;
        emit RolesChanged(msg.sender, minter_, distributor_);
        emit MaxPerWalletChanged(maxPerWallet_);
    }

    /// @notice Mints a node of `tier` to `to` for the payment `paymentRef` (its transaction hash).
    function mint(address to, uint8 tier, bytes32 paymentRef) external returns (uint256 id) {
        if (msg.sender != minter) revert NotMinter();
        if (paused) revert MintingPaused();
        if (to == address(0)) revert ZeroAddress();
        if (paymentRefUsed[paymentRef]) revert PaymentRefUsed();
        uint256[] storage nodes = owned[to];
        if (nodes.length >= maxPerWallet) revert WalletFull();

        paymentRefUsed[paymentRef] = true;
        id = ++nodeCount;
        metas[id] = Meta({owner: to, tier: tier});
        accounts[id].live = true;
        nodes.push(id);
        emit NodeMinted(id, to, tier, paymentRef);
    }

    /// @notice Credits `amounts[i]` to node `ids[i]` for round `roundId`, which is accepted once.
    /// The value sent plus the contract's surplus must cover the sum.
    function credit(uint256 roundId, uint256[] calldata ids, uint256[] calldata amounts) external payable {
        if (msg.sender != distributor) revert NotDistributor();
        if (roundUsed[roundId]) revert RoundUsed();
        if (ids.length != amounts.length) revert LengthMismatch();
        roundUsed[roundId] = true;

        uint256 count = nodeCount;
        uint256 total;
        for (uint256 i; i < ids.length; ++i) {
            uint256 id = ids[i];
            if (id == 0 || id > count) revert UnknownNode();
            uint256 amount = amounts[i];
            if (amount > type(uint128).max) revert AmountTooLarge();
            accounts[id].credited += uint128(amount); // checked: reverts on overflow
            total += amount;
        }
        uint256 outstanding = totalOutstanding + total;
        if (address(this).balance < outstanding) revert Insolvent();
        totalOutstanding = outstanding;
        emit Credited(roundId, ids.length, total);
    }

    /// @notice Pays `amount` of node `id`'s balance to `to`. Only the node's owner may; never
    /// blocked by the pause.
    function withdraw(uint256 id, address to, uint256 amount) external nonReentrant {
        if (id == 0 || id > nodeCount) revert UnknownNode();
        address nodeOwner = metas[id].owner;
        if (msg.sender != nodeOwner) revert NotNodeOwner();
        if (to == address(0)) revert ZeroAddress();
        Account storage a = accounts[id];
        if (amount > a.credited - a.withdrawn) revert InsufficientBalance();
        if (amount > type(uint120).max) revert AmountTooLarge();

        a.withdrawn += uint120(amount); // checked: reverts past uint120
        totalOutstanding -= amount;
        emit Withdrawn(id, nodeOwner, to, amount);
        (bool ok,) = to.call{value: amount}("");
        if (!ok) revert TransferFailed();
    }

    /// @notice Hands node `id` to `to`, with its balance. Only its owner may; never blocked by the
    /// pause; `to` may not exceed the total per wallet.
    function transfer(uint256 id, address to) external {
        if (id == 0 || id > nodeCount) revert UnknownNode();
        Meta storage m = metas[id];
        if (msg.sender != m.owner) revert NotNodeOwner();
        if (to == address(0)) revert ZeroAddress();
        uint256[] storage dst = owned[to];
        if (dst.length >= maxPerWallet) revert WalletFull();
        uint256[] storage src = owned[msg.sender];
        uint256 last = src.length - 1;
        for (uint256 i; i <= last; ++i) {
            if (src[i] == id) {
                src[i] = src[last];
                src.pop();
                break;
            }
        }
        dst.push(id);
        m.owner = to;
        emit Transferred(id, msg.sender, to);
    }

    /// @notice The nodes held by `wallet`, in minting order (a transfer moves the last one into
    /// the place of the node that left).
    function nodesOf(address wallet) external view returns (uint256[] memory) {
        return owned[wallet];
    }

    /// @notice One node: owner, tier, balance, credited and withdrawn totals.
    function nodeInfo(uint256 id)
        external
        view
        returns (address nodeOwner, uint8 tier, uint256 balance, uint256 credited, uint256 withdrawn)
    {
        if (id == 0 || id > nodeCount) revert UnknownNode();
        Meta memory m = metas[id];
        Account memory a = accounts[id];
        return (m.owner, m.tier, a.credited - a.withdrawn, a.credited, a.withdrawn);
    }

    /// @notice Everything ever withdrawn from node `id`.
    function totalWithdrawnByNode(uint256 id) external view returns (uint256) {
        if (id == 0 || id > nodeCount) revert UnknownNode();
        return accounts[id].withdrawn;
    }

    /// @notice Whether the contract's balance covers what it owes.
    function isSolvent() external view returns (bool) {
        return address(this).balance >= totalOutstanding;
    }

    /// @notice Pausing stops minting only: withdrawals and credits go on.
    function setPaused(bool paused_) external onlyOwner {
        paused = paused_;
        emit Paused(paused_);
    }

    function setRoles(address owner_, address minter_, address distributor_) external onlyOwner {
        if (owner_ == address(0) || minter_ == address(0) || distributor_ == address(0)) revert ZeroAddress();
        owner = owner_;
        minter = minter_;
        distributor = distributor_;
        emit RolesChanged(owner_, minter_, distributor_);
    }

    function setMaxPerWallet(uint32 maxPerWallet_) external onlyOwner {
        maxPerWallet = maxPerWallet_;
        emit MaxPerWalletChanged(maxPerWallet_);
    }

    /// @notice Funds the contract: a surplus over what it owes can pay a later round.
    receive() external payable {}
}
